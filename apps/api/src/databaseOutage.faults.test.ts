import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createDatabase } from '@yieldrouter/ledger';
import { endDatabaseConnections, startTcpProxy } from '@yieldrouter/ledger/testing';
import type { TcpProxy } from '@yieldrouter/ledger/testing';
import type { TestApp } from './testing/startTestApp';
import { TEST_WALLET, startTestApp, testKeys } from './testing/startTestApp';

// PostgreSQL dropping the API's connections under load (pg_terminate_backend, as a restart or
// failover does) or going away: answers are 200 or 503 DATABASE_UNAVAILABLE with Retry-After,
// never a 500 or a crash, and the API recovers by itself when PostgreSQL is back.

const CLIENTS = 16;
const POSITION = `/api/v1/wallets/${TEST_WALLET}/position`;
const PORTFOLIO = `/api/v1/wallets/${TEST_WALLET}/portfolio`;
const UNAVAILABLE = { status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '1' };

interface Answer {
  readonly status: number;
  readonly code: string | null;
  readonly retryAfter: string | null;
}

interface Served {
  readonly t: TestApp;
  readonly server: Server;
  readonly base: string;
  readonly agents: Agent[];
}

async function serve(t: TestApp): Promise<Served> {
  const server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    t,
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    agents: [],
  };
}

async function stop(served: Served | undefined): Promise<void> {
  if (!served) return;
  for (const agent of served.agents) agent.destroy();
  served.server.closeAllConnections();
  await new Promise((resolve) => served.server.close(resolve));
  await served.t.close();
}

function call(
  served: Served,
  agent: Agent,
  path: string,
  { method = 'GET', body }: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'X-API-Key': testKeys.owner };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const req = httpRequest(`${served.base}${path}`, { agent, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const parsed = text ? (JSON.parse(text) as { code?: string }) : {};
        resolve({
          status: res.statusCode ?? 0,
          code: parsed.code ?? null,
          retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
        });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const newAgent = (served: Served, keepAlive: boolean) => {
  const agent = new Agent({ keepAlive, maxSockets: CLIENTS });
  served.agents.push(agent);
  return agent;
};

describe('PostgreSQL ends the API connections under load', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(await startTestApp({ SVC_RATE_LIMIT_KEYED: '1000000' }));
  });
  afterAll(() => stop(served));

  /** Ends every connection to the app's own database (never anyone else's). */
  const endConnections = () => endDatabaseConnections(served.t.config.databaseUrl ?? '');

  it(`${CLIENTS} clients: every answer is 200 or 503 DATABASE_UNAVAILABLE, never 500`, async () => {
    const agent = newAgent(served, true);
    const answers: Answer[] = [];
    let running = true;
    const loops = Array.from({ length: CLIENTS }, async (_, index) => {
      // Position reads (the hot path) and portfolio reads (Prisma) side by side.
      const path = index % 2 === 0 ? POSITION : PORTFOLIO;
      while (running) answers.push(await call(served, agent, path));
    });
    let ended = 0;
    for (let round = 0; round < 4; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      ended += await endConnections();
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    running = false;
    await Promise.all(loops);
    expect(ended).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(CLIENTS * 4);
    for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
      expect(answer).toEqual(UNAVAILABLE);
    }
    // Recovered by itself: the next reads succeed on fresh connections.
    for (const path of [POSITION, PORTFOLIO]) {
      expect((await call(served, agent, path)).status).toBe(200);
    }
  });

  it('a transaction whose connection is cut mid-way fails cleanly, and the API goes on', async () => {
    // A checked-out connection (an interactive transaction) that the server ends between two
    // statements: its client emits 'error' outside any query.
    const work = served.t.db.transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      await endConnections();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await tx.$queryRaw`SELECT 1`;
    });
    await expect(work).rejects.toThrow();
    expect((await call(served, newAgent(served, false), POSITION)).status).toBe(200);
  });
});

describe('PostgreSQL away, then back', () => {
  let served: Served;
  let proxy: TcpProxy | undefined;
  beforeAll(async () => {
    const app = await startTestApp(
      {},
      {
        // The API reaches its database through a proxy the test can cut.
        openDatabase: async (url) => {
          const target = new URL(url);
          proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
          target.host = proxy.address;
          return createDatabase({ databaseUrl: target.toString(), migrate: false, poolSize: 4 });
        },
      },
    );
    served = await serve(app);
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await stop(served);
    await proxy?.close();
  });

  it('reads and writes answer 503 DATABASE_UNAVAILABLE with Retry-After, then 200 again', async () => {
    const agent = newAgent(served, true);
    expect((await call(served, agent, POSITION)).status).toBe(200);
    await proxy?.cut();
    expect(await call(served, agent, POSITION)).toEqual(UNAVAILABLE);
    expect(await call(served, agent, PORTFOLIO)).toEqual(UNAVAILABLE);
    const withdraw = await call(served, agent, `/api/v1/wallets/${TEST_WALLET}/withdraw`, {
      method: 'POST',
      body: { amountMicros: '1000000', chain: 'base' },
    });
    expect(withdraw).toEqual(UNAVAILABLE);
    await proxy?.restore();
    expect((await call(served, agent, POSITION)).status).toBe(200);
    expect((await call(served, agent, PORTFOLIO)).status).toBe(200);
  });
});
