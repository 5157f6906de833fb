import { createClient } from '../createClient';
import { ConnectionError } from '../errors/ConnectionError';
import {
  AuthenticationError,
  NotImplementedError,
  RateLimitError,
  ServerError,
} from '../errors/httpErrors';
import type { ScriptedReply, ScriptedServer } from '../testing/scriptedServer';
import { startScriptedServer } from '../testing/scriptedServer';

const SDK_DOCUMENT = {
  packageName: '@yieldrouter/sdk',
  published: false,
  version: null,
  apiVersion: '1.0.0',
  latestVersion: '1.0.0',
  minSupportedVersion: '1.0.0',
  install: null,
  releaseUrl: null,
  repoUrl: null,
};
const PLAN = { status: 'prepared', submitted: false, ownerMustSign: true, feeMicros: '0' };
const OK = { status: 200, body: SDK_DOCUMENT } as const;
const unavailable = {
  status: 503,
  body: { code: 'SERVICE_UNAVAILABLE', message: 'down', requestId: 'r1' },
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: ScriptedServer;
const serve = async (replies: ScriptedReply[]) => {
  server = await startScriptedServer(replies);
  return createClient({ baseUrl: server.url, retries: { maxRetries: 2, baseDelayMs: 5 } });
};
afterEach(() => server.close());

describe('retries of idempotent calls', () => {
  it('503 then 200: retried, resolves', async () => {
    const client = await serve([unavailable, OK]);
    await expect(client.getSdk()).resolves.toEqual(SDK_DOCUMENT);
    expect(server.requests).toHaveLength(2);
  });

  it('a dropped connection then 200: retried, resolves', async () => {
    const client = await serve([{ reset: true }, OK]);
    await expect(client.getSdk()).resolves.toEqual(SDK_DOCUMENT);
    expect(server.requests).toHaveLength(2);
  });

  it('429 honours Retry-After before retrying', async () => {
    const client = await serve([
      {
        status: 429,
        body: { code: 'RATE_LIMITED', message: 'slow down', requestId: 'r' },
        headers: { 'retry-after': '1' },
      },
      OK,
    ]);
    const started = Date.now();
    await expect(client.getSdk()).resolves.toEqual(SDK_DOCUMENT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('429 with a Retry-After past the limit is thrown at once, with retryAfterSeconds', async () => {
    const client = await serve([
      {
        status: 429,
        body: { code: 'RATE_LIMITED', message: 'later', requestId: 'r' },
        headers: { 'retry-after': '3600' },
      },
    ]);
    const error = await client.getSdk().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 3600 });
    expect(server.requests).toHaveLength(1);
  });

  it('5xx every time: ServerError after 1 + maxRetries attempts', async () => {
    const client = await serve([unavailable]);
    const error = await client.getSdk().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', requestId: 'r1' });
    expect(server.requests).toHaveLength(3);
  });

  it('per-call retries override the client setting', async () => {
    const client = await serve([unavailable]);
    await expect(client.getSdk({ retries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [
      '501',
      { status: 501, body: { code: 'NOT_IMPLEMENTED', message: 'later', requestId: 'r' } },
      NotImplementedError,
    ],
    [
      '401',
      { status: 401, body: { code: 'UNAUTHORIZED', message: 'key', requestId: 'r' } },
      AuthenticationError,
    ],
  ] as const)('%s is not retried', async (_status, reply, type) => {
    const client = await serve([reply, OK]);
    await expect(client.getSdk()).rejects.toBeInstanceOf(type);
    expect(server.requests).toHaveLength(1);
  });

  it('a proxy error page (not JSON) is still a typed ServerError', async () => {
    const client = await serve([{ status: 502, body: '<html>bad gateway</html>' }]);
    const error = await client.getSdk({ retries: 0 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: 'UNKNOWN', requestId: 'req_scripted_1' });
  });
});

describe('POST calls', () => {
  it('without an Idempotency-Key (deposit execute) are never retried', async () => {
    const client = await serve([unavailable, { status: 200, body: PLAN }]);
    const call = client.executeDeposit({
      body: { planId: 'plan_1', signedTransaction: 'AQID' },
    });
    await expect(call).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined();
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({
      planId: 'plan_1',
      signedTransaction: 'AQID',
    });
  });

  it('deposit and withdraw plans carry an Idempotency-Key and are retried with it', async () => {
    const client = await serve([unavailable, { status: 200, body: PLAN }]);
    const body = { strategyId: 'venue', amountMicros: '1000000' };
    await expect(client.prepareDepositPlan({ body })).resolves.toMatchObject(PLAN);
    await expect(
      client.prepareWithdrawPlan({ body, idempotencyKey: 'withdraw-1' }),
    ).resolves.toMatchObject(PLAN);
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toBe('withdraw-1');
  });

  it('money calls get a generated Idempotency-Key, reused on the retry', async () => {
    const client = await serve([{ reset: true }, { status: 200, body: PLAN }]);
    const plan = await client.routeFunds({
      params: { address: '0xabc' },
      body: { amountMicros: '1000000', token: 'USDC', chain: 'sui' },
    });
    expect(plan.status).toBe('prepared');
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a caller-given Idempotency-Key is sent as is; each call gets its own otherwise', async () => {
    const client = await serve([{ status: 200, body: PLAN }]);
    const body = { amountMicros: '1', chain: 'sui' } as const;
    await client.withdraw({ params: { address: '0xabc' }, body, idempotencyKey: 'mine-1' });
    await client.withdraw({ params: { address: '0xabc' }, body });
    await client.withdraw({ params: { address: '0xabc' }, body });
    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toBe('mine-1');
    expect(keys[1]).toMatch(UUID);
    expect(keys[2]).not.toBe(keys[1]);
  });
});

describe('timeouts and cancellation', () => {
  it('an attempt past timeoutMs is a ConnectionError TIMEOUT (retried first for GET)', async () => {
    const client = await serve([{ hang: true }]);
    const error = await client.getSdk({ timeoutMs: 100 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT' });
    expect(server.requests).toHaveLength(3);
  });

  it('a timeout then an answer: the retry succeeds', async () => {
    server = await startScriptedServer([{ hang: true }, OK]);
    const client = createClient({
      baseUrl: server.url,
      timeoutMs: 100,
      retries: { baseDelayMs: 5 },
    });
    await expect(client.getSdk()).resolves.toEqual(SDK_DOCUMENT);
  });

  it('the caller AbortSignal rejects with its reason and stops retrying', async () => {
    const client = await serve([{ hang: true }]);
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 50);
    await expect(client.getSdk({ signal: controller.signal })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('an unreachable server is a ConnectionError CONNECTION_ERROR', async () => {
    server = await startScriptedServer([OK]);
    const url = server.url;
    await server.close();
    const client = createClient({ baseUrl: url, retries: 0 });
    const error = await client.getSdk().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'CONNECTION_ERROR' });
    server = await startScriptedServer([OK]);
  });
});
