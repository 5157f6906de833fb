import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ANSWER_BODY, IN_PROCESS } from '../http/responseBytes';

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
  /** The route's answer as its handler built it (a 2xx of a route), when it handed it over. */
  readonly answer?: { readonly body: unknown };
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
 * and response on an unconnected socket, the body handed over parsed, the answer collected:
 * a route's 2xx body as its handler's object (no JSON written and read back), else its bytes.
 */
export function dispatchInProcess(
  app: RequestListener,
  request: InProcessRequest,
): Promise<InProcessResponse> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: request.remoteAddress });
    const req = new IncomingMessage(socket);
    (req as unknown as Record<symbol, unknown>)[IN_PROCESS] = true;
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
      const text = Buffer.concat(chunks).toString('utf8');
      const handed = res as unknown as Record<symbol, unknown>;
      resolve(
        ANSWER_BODY in handed
          ? { status: res.statusCode, text, answer: { body: handed[ANSWER_BODY] } }
          : { status: res.statusCode, text },
      );
      return res;
    }) as ServerResponse['end'];
    try {
      app(req, res);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
