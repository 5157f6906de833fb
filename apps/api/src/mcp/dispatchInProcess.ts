import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export interface InProcessRequest {
  readonly method: string;
  /** Path and query, e.g. `/api/v1/svc/fees`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body, already parsed (the app's JSON parser does not run: no bytes are sent). */
  readonly body?: unknown;
  /** The caller's address, as the app sees it for rate limits and failed-authentication counts. */
  readonly remoteAddress: string;
}

export interface InProcessResponse {
  readonly status: number;
  readonly text: string;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const bytesOf = (chunk: unknown, encoding: unknown): Buffer =>
  Buffer.isBuffer(chunk)
    ? chunk
    : chunk instanceof Uint8Array
      ? Buffer.from(chunk)
      : Buffer.from(
          String(chunk),
          typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
        );

/**
 * One request through the whole app (its middleware, authentication, rate limits, request
 * guard, idempotency and handlers: the REST route itself) without a socket: a Node request
 * and response on an unconnected socket, the body handed over parsed, the answer collected.
 */
export function dispatchInProcess(
  app: RequestListener,
  request: InProcessRequest,
): Promise<InProcessResponse> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: request.remoteAddress });
    const req = new IncomingMessage(socket);
    req.method = request.method;
    req.url = request.url;
    req.headers = { ...request.headers };
    if (request.body !== undefined)
      (req as IncomingMessage & { body?: unknown }).body = request.body;
    req.push(null);
    const res = new ServerResponse(req);
    const chunks: Buffer[] = [];
    res.write = ((chunk: unknown, encoding?: unknown) => {
      chunks.push(bytesOf(chunk, encoding));
      return true;
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, encoding?: unknown) => {
      if (chunk !== undefined && typeof chunk !== 'function') chunks.push(bytesOf(chunk, encoding));
      res.emit('finish');
      resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') });
      return res;
    }) as ServerResponse['end'];
    try {
      app(req, res);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
