import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RPC_ERROR, SolanaRpcError } from './rpcError';
import type { RpcMethods } from './rpcMethods';

/** A running JSON-RPC endpoint on 127.0.0.1. */
export interface JsonRpcServer {
  readonly url: string;
  /** Stops listening and drops open (keep-alive) connections so a test process can exit. */
  close(): Promise<void>;
}

type JsonRpcId = string | number | null;

interface JsonRpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

const MAX_BODY_BYTES = 5 * 1024 * 1024;

function failure(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

function idOf(request: Record<string, unknown>): JsonRpcId {
  const id = request['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function answer(methods: RpcMethods, request: unknown): JsonRpcResponse {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return failure(null, RPC_ERROR.invalidRequest, 'Invalid request');
  }
  const fields = request as Record<string, unknown>;
  const id = idOf(fields);
  const { method, params = [] } = fields;
  if (fields['jsonrpc'] !== '2.0' || typeof method !== 'string' || !Array.isArray(params)) {
    return failure(id, RPC_ERROR.invalidRequest, 'Invalid request');
  }
  const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!handler) return failure(id, RPC_ERROR.methodNotFound, 'Method not found');
  try {
    const result = handler(params);
    // Serialize here so a bigint that slipped through is this request's error, not a crash.
    return { jsonrpc: '2.0', id, result: JSON.parse(JSON.stringify(result ?? null)) as unknown };
  } catch (error) {
    if (error instanceof SolanaRpcError) return failure(id, error.code, error.message, error.data);
    const message = error instanceof Error ? error.message : String(error);
    return failure(id, RPC_ERROR.internalError, `Internal error: ${message}`);
  }
}

function respond(body: string, methods: RpcMethods): unknown {
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return failure(null, RPC_ERROR.parseError, 'Parse error');
  }
  if (!Array.isArray(request)) return answer(methods, request);
  if (request.length === 0) return failure(null, RPC_ERROR.invalidRequest, 'Invalid request');
  return request.map((entry) => answer(methods, entry));
}

function handle(methods: RpcMethods, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST') {
    req.resume();
    res.writeHead(405, { allow: 'POST' }).end('Used HTTP Method is not allowed. POST is required');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413).end();
      return;
    }
    const body = JSON.stringify(respond(Buffer.concat(chunks).toString('utf8'), methods));
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
}

/**
 * Serves `methods` as JSON-RPC 2.0 over HTTP POST on 127.0.0.1 (port chosen by the OS): echoes
 * each request id, answers batches with an array, unknown methods with -32601.
 *
 * @example
 * const server = await startJsonRpcServer({ getSlot: () => 1 });
 * await server.close();
 */
export function startJsonRpcServer(methods: RpcMethods): Promise<JsonRpcServer> {
  const server = createServer((req, res) => handle(methods, req, res));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (!address || typeof address === 'string') {
        reject(new Error('json-rpc server: no TCP address'));
        return;
      }
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
