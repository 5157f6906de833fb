import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { createJsonRpcHttp } from './jsonRpcHttp';
import { toUnavailable } from './toUnavailable';

// Each path of the local node answers one way; the request it got is kept for the checks.
type Answer = (id: unknown) => { status?: number; body: string };
const ANSWERS: Record<string, Answer> = {
  '/ok': (id) => ({ body: JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }) }),
  '/null': (id) => ({ body: JSON.stringify({ jsonrpc: '2.0', id, result: null }) }),
  '/other-id': () => ({ body: '{"jsonrpc":"2.0","id":9999,"result":"0x2a"}' }),
  '/no-result': (id) => ({ body: JSON.stringify({ jsonrpc: '2.0', id }) }),
  '/rate-limited': (id) => ({
    body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32005, message: 'rate limited' } }),
  }),
  '/revert': (id) => ({
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      error: { code: 3, message: 'execution reverted: not allowed', data: '0x08c379a0' },
    }),
  }),
  '/502': () => ({ status: 502, body: '<html>upstream at http://10.0.0.7/v2/SECRET</html>' }),
  '/429': (id) => ({
    status: 429,
    body: JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32005, message: 'slow down' } }),
  }),
  '/garbage': () => ({ body: '<html>502 Bad Gateway</html>' }),
};

interface Seen {
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: { jsonrpc: string; id: unknown; method: string; params: unknown };
}
const seen: Seen[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Seen['body'];
      seen.push({ url: req.url, headers: req.headers, body });
      const path = (req.url ?? '').startsWith('/v2/') ? '/ok' : (req.url ?? '');
      const answer = ANSWERS[path]?.(body.id) ?? { status: 404, body: 'no such path' };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => (seen.length = 0));

const rpcAt = (path: string, timeoutMs = 2_000) =>
  createJsonRpcHttp({ url: `${base}${path}`, timeoutMs });
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

describe('createJsonRpcHttp', () => {
  it('posts a JSON-RPC 2.0 call and gives its result; ids count up per client', async () => {
    const rpc = rpcAt('/ok');
    expect(await rpc.request('eth_getBalance', ['0xabc', 'latest'])).toBe('0x2a');
    expect(await rpc.request('eth_blockNumber')).toBe('0x2a');
    expect(await rpcAt('/null').request('eth_getTransactionReceipt', ['0x01'])).toBeNull();
    expect(seen.map((request) => request.body)).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0xabc', 'latest'] },
      { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: ['0x01'] },
    ]);
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    // One keep-alive connection carries the calls one after the other.
    expect(seen[0]?.headers.connection).toBe('keep-alive');
  });

  it("another call's id, or neither result nor error → rpc_bad_response", async () => {
    for (const path of ['/other-id', '/no-result']) {
      const error = await failureOf(rpcAt(path).request('eth_blockNumber'));
      expect(error).toMatchObject({ name: 'RpcBadResponseError' });
      expect(toUnavailable(error, 'block').reason).toBe('rpc_bad_response');
    }
  });

  it('a body that is not JSON → SyntaxError → rpc_bad_response', async () => {
    const error = await failureOf(rpcAt('/garbage').request('eth_blockNumber'));
    expect(error).toMatchObject({ name: 'SyntaxError' });
    expect(toUnavailable(error, 'block').reason).toBe('rpc_bad_response');
  });

  it("a JSON-RPC error → rpc_error whose detail has the node's message", async () => {
    const limited = await failureOf(rpcAt('/rate-limited').request('eth_call', []));
    expect(limited).toMatchObject({ name: 'RpcRequestError', code: -32005 });
    expect(toUnavailable(limited, 'allowance')).toEqual({
      status: 'unavailable',
      reason: 'rpc_error',
      detail: 'allowance: RPC request failed — rate limited',
    });
    // Gas sizing tells a revert by name and message.
    const reverted = await failureOf(rpcAt('/revert').request('eth_estimateGas', []));
    expect(reverted).toMatchObject({ code: 3, data: '0x08c379a0' });
    const { name, message } = reverted as Error;
    expect(`${name} ${message}`).toMatch(/execution reverted: not allowed/);
  });

  it('an HTTP status other than 2xx → rpc_error with the status, no body dump', async () => {
    const error = await failureOf(rpcAt('/502').request('eth_blockNumber'));
    expect(error).toMatchObject({ name: 'HttpRequestError', status: 502 });
    const { detail } = toUnavailable(error, 'block');
    expect(detail).toBe('block: HTTP request failed — Status: 502');
    // A JSON-RPC error sent with the status keeps the node's message.
    const limited = await failureOf(rpcAt('/429').request('eth_blockNumber'));
    expect(toUnavailable(limited, 'block')).toMatchObject({
      reason: 'rpc_error',
      detail: 'block: HTTP request failed — Status: 429 — slow down',
    });
  });

  it('a silent node → rpc_timeout within the timeout, and the socket is closed', async () => {
    const sockets: Socket[] = [];
    // Reads what it is sent (so it sees the connection end) and never answers.
    const silent = createTcpServer((socket) => sockets.push(socket.resume()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const rpc = createJsonRpcHttp({ url: `http://127.0.0.1:${port}/`, timeoutMs: 200 });
      const started = performance.now();
      const error = await failureOf(rpc.request('eth_blockNumber'));
      const elapsed = performance.now() - started;
      expect(error).toMatchObject({ name: 'TimeoutError' });
      expect(toUnavailable(error, 'block').reason).toBe('rpc_timeout');
      expect(elapsed).toBeGreaterThanOrEqual(190);
      // Gave up at its timeout, not when the node would have answered (never): a bound well
      // below the test's own, wide enough for a loaded CI machine's event loop.
      expect(elapsed).toBeLessThan(10_000);
      // The client destroyed its socket: the node sees the connection end.
      expect(sockets).toHaveLength(1);
      const socket = sockets[0] as Socket;
      if (!socket.closed) await new Promise((resolve) => socket.once('close', resolve));
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a closed port → rpc_error with ECONNREFUSED, no host or port', async () => {
    const url = await closedPortUrl();
    const error = await failureOf(createJsonRpcHttp({ url, timeoutMs: 2_000 }).request('x'));
    const { port } = new URL(url);
    const { reason, detail } = toUnavailable(error, 'block');
    expect(reason).toBe('rpc_error');
    expect(detail).toBe('block: RPC connection failed — ECONNREFUSED');
    expect(detail).not.toContain('127.0.0.1');
    expect(detail).not.toContain(port);
    expect((error as Error).message).not.toContain(port);
  });

  it('an API key in the path, query or credentials is sent and never reported', async () => {
    const keyed = `${base}/v2/SECRET-PATH?apikey=SECRET-QUERY`;
    const rpc = createJsonRpcHttp({
      url: keyed.replace('http://', 'http://me:SECRET-PW@'),
      timeoutMs: 2_000,
    });
    expect(await rpc.request('eth_blockNumber')).toBe('0x2a');
    expect(seen[0]?.url).toBe('/v2/SECRET-PATH?apikey=SECRET-QUERY');
    expect(seen[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('me:SECRET-PW').toString('base64')}`,
    );
    const failures = await Promise.all([
      failureOf(
        createJsonRpcHttp({ url: `${base}/502?key=SECRET`, timeoutMs: 2_000 }).request('x'),
      ),
      failureOf(
        createJsonRpcHttp({ url: `${base}/revert?key=SECRET`, timeoutMs: 2_000 }).request('x'),
      ),
      failureOf(
        createJsonRpcHttp({ url: `${base}/garbage?key=SECRET`, timeoutMs: 2_000 }).request('x'),
      ),
      failureOf(
        createJsonRpcHttp({ url: `${await closedPortUrl()}/SECRET`, timeoutMs: 2_000 }).request(
          'x',
        ),
      ),
      failureOf(
        createJsonRpcHttp({ url: 'ftp://SECRET@host/SECRET', timeoutMs: 2_000 }).request('x'),
      ),
      failureOf(createJsonRpcHttp({ url: 'not a url SECRET', timeoutMs: 2_000 }).request('x')),
    ]);
    for (const error of failures) {
      const { message, stack } = error as Error;
      expect(`${message} ${stack} ${JSON.stringify(error)}`).not.toContain('SECRET');
      expect(toUnavailable(error, 'read').detail).not.toContain('SECRET');
    }
  });
});
