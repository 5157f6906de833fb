import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { createDefiLlamaReader } from './defiLlamaReader';
import type { ApyQuery, ApyReading } from './types';
import {
  closedPortUrl,
  startGarbageServer,
  startSilentServer,
} from '@yieldrouter/chain-beds/faults';
import { startYieldsServer } from '@yieldrouter/chain-beds/yields';
import type { FaultEndpoint } from '@yieldrouter/chain-beds/faults';
import { seededRandom } from './testing/random';

const TIMEOUT_MS = 250;
const QUERY: readonly ApyQuery[] = [{ venueId: 'v', poolId: 'p' }];
const POOL = { pool: 'p', apy: 4, apyBase: 4, apyReward: null, tvlUsd: 1 };

function reasons(readings: readonly ApyReading[]): (string | undefined)[] {
  return readings.map((reading) => (reading.status === 'unavailable' ? reading.reason : undefined));
}

async function readFrom(url: string, queries = QUERY): Promise<readonly ApyReading[]> {
  return createDefiLlamaReader({ baseUrl: url, timeoutMs: TIMEOUT_MS }).read(queries);
}

/** Sends headers and half a body, then stalls: the timeout must cover the body too. */
async function startStallingBodyServer(): Promise<FaultEndpoint> {
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"status":"success","data":[');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

describe('createDefiLlamaReader when the source fails', () => {
  const endpoints: FaultEndpoint[] = [];

  afterEach(async () => {
    await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
  });

  async function garbage(body: string, status = 200): Promise<string> {
    const endpoint = await startGarbageServer(body, status);
    endpoints.push(endpoint);
    return endpoint.url;
  }

  it('source down (connection refused) → source_error with the code, not the address', async () => {
    const readings = await readFrom(await closedPortUrl());
    expect(reasons(readings)).toEqual(['source_error']);
    expect(readings[0]).toMatchObject({ detail: 'source request failed (ECONNREFUSED)' });
  });

  it('silent source → source_timeout within the timeout', async () => {
    const silent = await startSilentServer();
    endpoints.push(silent);
    const started = Date.now();
    expect(reasons(await readFrom(silent.url))).toEqual(['source_timeout']);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 10_000); // never answers: the timeout ended it
  });

  it('body that stalls after the headers → source_timeout within the timeout', async () => {
    const stalling = await startStallingBodyServer();
    endpoints.push(stalling);
    const started = Date.now();
    expect(reasons(await readFrom(stalling.url))).toEqual(['source_timeout']);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
  });

  it('a fetch that ignores its abort signal still cannot outlive the timeout', async () => {
    const hanging: typeof fetch = () => new Promise<Response>(() => undefined);
    const started = Date.now();
    const readings = await createDefiLlamaReader({
      baseUrl: 'http://source.invalid',
      timeoutMs: TIMEOUT_MS,
      fetch: hanging,
    }).read(QUERY);
    expect(reasons(readings)).toEqual(['source_timeout']);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
  });

  it.each([
    ['HTML', '<html>502 Bad Gateway</html>'],
    ['a JSON array', JSON.stringify([POOL])],
    ['a JSON object without data', JSON.stringify({ status: 'success', pools: [POOL] })],
    ['status error', JSON.stringify({ status: 'error', data: [POOL] })],
    ['data entries without ids', JSON.stringify({ status: 'success', data: [{ apy: 4 }] })],
    ['truncated JSON', '{"status":"success","data":[{"pool":"p"'],
  ])('%s → source_bad_response', async (_name, body) => {
    const readings = await readFrom(await garbage(body));
    expect(reasons(readings)).toEqual(['source_bad_response']);
  });

  it('non-finite numbers (1e400 parses to Infinity) → source_bad_response for that pool', async () => {
    const body = `{"status":"success","data":[{"pool":"p","apy":1e400,"tvlUsd":1},{"pool":"q","apy":2,"tvlUsd":1e400}]}`;
    const readings = await readFrom(await garbage(body), [
      { venueId: 'v', poolId: 'p' },
      { venueId: 'w', poolId: 'q' },
    ]);
    expect(reasons(readings)).toEqual(['source_bad_response', 'source_bad_response']);
  });

  it('non-2xx with a well-formed body → source_error with the status', async () => {
    const body = JSON.stringify({ status: 'success', data: [POOL] });
    const readings = await readFrom(await garbage(body, 503));
    expect(readings).toEqual([
      expect.objectContaining({ reason: 'source_error', detail: 'source answered HTTP 503' }),
    ]);
  });

  it('property: whenever the source fails, no reading is ok and every query is answered in order', async () => {
    const random = seededRandom(2024);
    const yields = await startYieldsServer();
    const silent = await startSilentServer();
    endpoints.push(silent, { url: yields.url, close: () => yields.stop() });
    const poolIds = [
      '0b8f3d2e-5c41-4a53-9e0a-1a2b3c4d5e01',
      '0b8f3d2e-5c41-4a53-9e0a-1a2b3c4d5e03',
    ];
    const failures = [
      async () => closedPortUrl(),
      async () => silent.url,
      async () => garbage(random.pick(['<html>', '[]', '{}', 'null', '{"status":"success"}'])),
      async () =>
        garbage(
          JSON.stringify({ status: 'success', data: [POOL] }),
          random.pick([400, 404, 500, 502]),
        ),
      async () => {
        yields.setFailure(random.pick(['error500', 'garbage', 'silent'] as const));
        return yields.url;
      },
    ];
    for (let run = 0; run < 25; run += 1) {
      const url = await random.pick(failures)();
      const queries = Array.from({ length: random.int(0, 6) }, (_, index) => ({
        venueId: `venue-${index}`,
        poolId: random.int(0, 3) === 0 ? undefined : random.pick([...poolIds, 'p', 'unknown']),
      }));
      const readings = await createDefiLlamaReader({ baseUrl: url, timeoutMs: 100 }).read(queries);
      expect(readings.map((reading) => reading.venueId)).toEqual(queries.map((q) => q.venueId));
      for (const reading of readings) {
        expect(reading.status).toBe('unavailable');
        if (reading.status === 'unavailable') expect(reading.detail).not.toContain('127.0.0.1');
      }
      yields.setFailure('none');
    }
  });
});
