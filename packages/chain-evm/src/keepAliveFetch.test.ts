import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEvmRpc } from './evmRpc';
import { keepAliveFetch } from './keepAliveFetch';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/rpc') {
        const { id } = JSON.parse(body) as { id: number };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }));
      } else if (req.url === '/echo') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'], body }));
      } else if (req.url === '/slow') {
        setTimeout(() => res.writeHead(200).end('{}'), 2_000).unref();
      } else if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' });
        res.write('{"partial":');
        setTimeout(() => res.destroy(), 20);
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/echo' }).end();
      } else if (req.url === '/empty') {
        res.writeHead(204).end();
      } else {
        res.writeHead(503).end('down');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('keepAliveFetch', () => {
  it('answers as fetch does: status, headers, the JSON body; the body sent as given', async () => {
    const response = await keepAliveFetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      method: 'POST',
      type: 'application/json',
      body: '{"jsonrpc":"2.0"}',
    });
    const again = await keepAliveFetch(new URL(`${base}/echo`));
    expect(((await again.json()) as { method: string }).method).toBe('GET');
  });

  it('gives an error status back as not ok, never follows a redirect, and reads a 204', async () => {
    const down = await keepAliveFetch(`${base}/down`);
    expect([down.ok, down.status, await down.text()]).toEqual([false, 503, 'down']);
    const moved = await keepAliveFetch(`${base}/moved`);
    expect([moved.ok, moved.status]).toEqual([false, 302]);
    const empty = await keepAliveFetch(`${base}/empty`);
    expect([empty.status, await empty.text()]).toEqual([204, '']);
  });

  it('rejects with the signal reason on a timeout (TimeoutError), as fetch does', async () => {
    const started = Date.now();
    await expect(
      keepAliveFetch(`${base}/slow`, { signal: AbortSignal.timeout(100) }),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('rejects with fetch failed, the socket error as cause, when nobody answers or the answer is cut', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await keepAliveFetch(`http://127.0.0.1:${port}/`).catch((error) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    await expect(keepAliveFetch(`${base}/cut`)).rejects.toMatchObject({ message: 'fetch failed' });
  });

  it('refuses what it does not send: another protocol, a non-string body', async () => {
    await expect(keepAliveFetch('ftp://127.0.0.1/')).rejects.toThrow('not http(s)');
    await expect(
      keepAliveFetch(`${base}/echo`, { method: 'POST', body: new Uint8Array([1]) }),
    ).rejects.toThrow('only string bodies');
  });

  it("is how the EVM RPC reads (Node's fetch is not called)", async () => {
    const spy = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('not this one'));
    try {
      const rpc = createEvmRpc({ rpcUrl: `${base}/rpc`, timeoutMs: 2_000 });
      expect(await rpc.blockNumber()).toBe(42n);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
