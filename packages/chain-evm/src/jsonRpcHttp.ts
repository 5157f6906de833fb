import { request as httpRequest } from 'node:http';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { keepAliveAgents } from './keepAliveAgents';
import { RpcBadResponseError } from './RpcBadResponseError';

/** JSON-RPC 2.0 over HTTP POST: one call, its `result` (unchecked: the caller checks the shape). */
export interface JsonRpcHttp {
  request(method: string, params?: readonly unknown[]): Promise<unknown>;
}

export interface CreateJsonRpcHttpParameters {
  /** http(s) URL; credentials, path and query are used as given and never reported. */
  readonly url: string;
  /** Upper bound on each call (connect, send, the whole answer), in milliseconds. */
  readonly timeoutMs: number;
}

/** The node did not answer the whole call within the timeout. */
export class RpcTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** The node answered with a status other than 2xx. */
export class RpcHttpStatusError extends Error {
  override readonly name = 'HttpRequestError';
  readonly shortMessage = 'HTTP request failed';
  readonly details: string;
  constructor(
    readonly status: number,
    /** The node's JSON-RPC error message when the body holds one (a 429 "rate limited"). */
    nodeMessage: string | undefined,
  ) {
    const details = nodeMessage ? `Status: ${status} — ${nodeMessage}` : `Status: ${status}`;
    super(`HTTP request failed — ${details}`);
    this.details = details;
  }
}

/** The node answered with a JSON-RPC `error` (a revert, a rate limit, an unknown method…). */
export class RpcRequestError extends Error {
  override readonly name = 'RpcRequestError';
  readonly shortMessage = 'RPC request failed';
  /** The node's message, e.g. `execution reverted: …`. */
  readonly details: string | undefined;
  constructor(
    nodeMessage: string | undefined,
    /** The JSON-RPC error code (a number, e.g. 3 for a revert, -32005 for a limit). */
    readonly code: unknown,
    /** The error's `data` (revert data for code 3). */
    readonly data: unknown,
  ) {
    super(nodeMessage ? `RPC request failed: ${nodeMessage}` : 'RPC request failed');
    this.details = nodeMessage;
  }
}

/** The connection failed (refused, reset, unknown host…): the socket error's code, no address. */
export class RpcConnectionError extends Error {
  override readonly name = 'RpcConnectionError';
  readonly shortMessage = 'RPC connection failed';
  constructor(readonly code: string | undefined) {
    super(code ? `RPC connection failed (${code})` : 'RPC connection failed');
  }
}

const MAX_NODE_MESSAGE = 500;

interface NodeError {
  readonly message: string | undefined;
  readonly code: unknown;
  readonly data: unknown;
}

/** The answer's JSON-RPC `error`, if it has one (`"error": null` is no error). */
function nodeErrorOf(value: unknown): NodeError | null {
  if (typeof value !== 'object' || value === null || !('error' in value)) return null;
  const error: unknown = value.error;
  if (error === null || error === undefined) return null;
  const { message, code, data } =
    typeof error === 'object' ? (error as Record<string, unknown>) : { message: error };
  return {
    message:
      typeof message === 'string' && message ? message.slice(0, MAX_NODE_MESSAGE) : undefined,
    code,
    data,
  };
}

function statusMessage(text: string): string | undefined {
  try {
    return nodeErrorOf(JSON.parse(text))?.message;
  } catch {
    return undefined;
  }
}

/** The answer to call `id`: its result, or the error it stands for. */
function resultOf(text: string, status: number, id: number): unknown {
  if (status < 200 || status > 299) throw new RpcHttpStatusError(status, statusMessage(text));
  const body: unknown = JSON.parse(text);
  const nodeError = nodeErrorOf(body);
  // An error is reported whatever its id (a node that cannot read the request answers id null).
  if (nodeError) throw new RpcRequestError(nodeError.message, nodeError.code, nodeError.data);
  if (typeof body !== 'object' || body === null || (body as { id?: unknown }).id !== id) {
    throw new RpcBadResponseError('the answer is not the one to this call (id)');
  }
  if (!('result' in body)) throw new RpcBadResponseError('the answer has no result and no error');
  return body.result;
}

interface Target {
  readonly send: typeof httpRequest;
  readonly options: RequestOptions;
}

function targetOf(url: string): Target {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    // The URL itself is never echoed: it may hold an API key.
    throw new TypeError('the RPC URL is not a valid URL');
  }
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:') throw new TypeError('the RPC URL is not http(s)');
  return {
    send: secure ? httpsRequest : httpRequest,
    options: {
      ...urlToHttpOptions(target),
      method: 'POST',
      agent: secure ? keepAliveAgents.https : keepAliveAgents.http,
    },
  };
}

/**
 * A lean JSON-RPC 2.0 client over node:http(s) on the process's keep-alive pools: one POST per
 * call, the whole answer read then `JSON.parse`d, a per-call timer that destroys the request
 * (no AbortController, no web Response), no retries. Failures (none names the URL):
 * - no whole answer in `timeoutMs` → `RpcTimeoutError` (name `TimeoutError`);
 * - a status other than 2xx → `RpcHttpStatusError` (`Status: 502`, the node's message if any);
 * - a JSON-RPC `error` → `RpcRequestError` (the node's message in `message` and `details`);
 * - a body that is not JSON → `SyntaxError`; no result, or another call's id → `RpcBadResponseError`;
 * - a socket failure → `RpcConnectionError` (its code: `ECONNREFUSED`…).
 *
 * @example
 * const rpc = createJsonRpcHttp({ url: 'http://127.0.0.1:8545', timeoutMs: 2_000 });
 * await rpc.request('eth_blockNumber') // '0x2a'
 */
export function createJsonRpcHttp({ url, timeoutMs }: CreateJsonRpcHttpParameters): JsonRpcHttp {
  let target: Target | undefined;
  let invalid: unknown;
  try {
    target = targetOf(url);
  } catch (error) {
    invalid = error;
  }
  let nextId = 1;
  return {
    request(method, params = []) {
      if (!target) return Promise.reject(invalid);
      const { send, options } = target;
      const id = nextId++;
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
      return new Promise((resolve, reject) => {
        let settled = false;
        const fail = (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(error);
        };
        const onAnswer = (answer: IncomingMessage) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('error', (error: NodeJS.ErrnoException) => {
            fail(new RpcConnectionError(error.code ?? 'ECONNRESET'));
          });
          answer.on('close', () => {
            if (!answer.complete) fail(new RpcConnectionError('ECONNRESET'));
          });
          answer.on('end', () => {
            if (settled) return;
            let result: unknown;
            try {
              const text = Buffer.concat(chunks).toString('utf8');
              result = resultOf(text, answer.statusCode ?? 0, id);
            } catch (error) {
              fail(error);
              return;
            }
            settled = true;
            clearTimeout(timer);
            resolve(result);
          });
        };
        const request = send(
          {
            ...options,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          onAnswer,
        );
        const timer = setTimeout(() => {
          fail(new RpcTimeoutError(`the RPC did not answer within ${timeoutMs} ms`));
          request.destroy();
        }, timeoutMs);
        request.on('error', (error: NodeJS.ErrnoException) =>
          fail(new RpcConnectionError(error.code)),
        );
        request.end(body);
      });
    },
  };
}
