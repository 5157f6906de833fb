import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { createEmptyTestDatabase } from '@yieldrouter/ledger/testing';
import { spawnService } from '@yieldrouter/faults';
import type { ServiceProcess } from '@yieldrouter/faults';

// SIGTERM while 16 keep-alive clients keep sending requests: the API stops accepting, answers
// every request it has (Connection: close), closes its pools, logs "stopped" and exits 0 well
// within the drain timeout. No request is reset.

jest.setTimeout(120_000);

const CLIENTS = 16;
const DRAIN_TIMEOUT_MS = 8000;
const OWNER_KEY = `owner-${randomBytes(12).toString('hex')}`;
const WALLET = '0x1111111111111111111111111111111111111111';

type Outcome =
  | { readonly kind: 'answered'; readonly status: number; readonly closing: boolean }
  | { readonly kind: 'refused' }
  | { readonly kind: 'reset'; readonly detail: string };

function get(agent: Agent, port: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: `/api/v1/wallets/${WALLET}/position`,
        agent,
        headers: { 'X-API-Key': OWNER_KEY },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            kind: 'answered',
            status: res.statusCode ?? 0,
            closing: res.headers.connection === 'close',
          }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      // A new connection after the listener closed is refused: the load balancer's cue to go
      // elsewhere. Anything else (reset, hang-up) lost a request the API had taken.
      resolve(
        error.code === 'ECONNREFUSED'
          ? { kind: 'refused' }
          : { kind: 'reset', detail: `${error.code ?? ''} ${error.message}` },
      ),
    );
    req.end();
  });
}

let api: ServiceProcess | undefined;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  database = await createEmptyTestDatabase();
});
afterAll(async () => {
  api?.kill('SIGKILL');
  await api?.exited;
  await database?.drop();
});

describe('API process: SIGTERM under keep-alive load', () => {
  it('answers every request under way, resets none, exits 0 within the drain timeout', async () => {
    api = spawnService('api', {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: database.url,
      REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
      SVC_KEEPER_PREFIX: `svc:test:${randomBytes(6).toString('hex')}:keeper`,
      SVC_API_KEYS: JSON.stringify([{ key: OWNER_KEY, role: 'owner', wallets: [WALLET] }]),
      SVC_RATE_LIMIT_KEYED: '1000000',
      SVC_DRAIN_TIMEOUT_MS: String(DRAIN_TIMEOUT_MS),
    });
    const port = await api.ready;
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const outcomes: Outcome[] = [];
    let afterSignal = 0;
    let signalled = false;
    const loops = Array.from({ length: CLIENTS }, async () => {
      for (;;) {
        const outcome = await get(agent, port);
        outcomes.push(outcome);
        if (signalled && outcome.kind === 'answered') afterSignal += 1;
        if (outcome.kind !== 'answered') return;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const answeredBefore = outcomes.length;
    const sentAt = Date.now();
    signalled = true;
    api.kill('SIGTERM');
    const code = await api.exited;
    const drainMs = Date.now() - sentAt;
    await Promise.all(loops);
    agent.destroy();

    const resets = outcomes.filter((outcome) => outcome.kind === 'reset');
    expect({ code, resets }).toEqual({ code: 0, resets: [] });
    expect(answeredBefore).toBeGreaterThan(CLIENTS);
    // The requests under way at the signal were answered, with Connection: close.
    expect(afterSignal).toBeGreaterThan(0);
    expect(outcomes.some((outcome) => outcome.kind === 'answered' && outcome.closing)).toBe(true);
    expect(
      outcomes.filter((outcome) => outcome.kind === 'answered' && outcome.status !== 200),
    ).toEqual([]);
    expect(drainMs).toBeLessThan(DRAIN_TIMEOUT_MS);
    expect(api.output()).toMatch(/"msg":"stopped"/);
  });
});
