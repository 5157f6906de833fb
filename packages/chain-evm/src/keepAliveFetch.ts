import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { keepAliveAgents as agents } from './keepAliveAgents';

/** Statuses whose answer has no body (a Response refuses one). */
const NO_BODY = new Set([204, 205, 304]);

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const given = init?.headers;
  const headers: Record<string, string> = {};
  if (!given) return headers;
  if (given instanceof Headers || Array.isArray(given)) {
    new Headers(given).forEach((value, name) => (headers[name] = value));
    return headers;
  }
  for (const [name, value] of Object.entries(given)) {
    // Node's types allow a list of values; the DOM's (seen by some callers) a string only.
    const values: unknown = value;
    headers[name] = Array.isArray(values) ? values.join(', ') : String(values);
  }
  return headers;
}

function bodyOf(init: RequestInit | undefined): string | undefined {
  const body = init?.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'string') throw new TypeError('keepAliveFetch: only string bodies');
  return body;
}

function responseOf(answer: IncomingMessage, text: string): Response {
  const status = answer.statusCode ?? 0;
  const headers: [string, string][] = [];
  for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
    headers.push([answer.rawHeaders[index] as string, answer.rawHeaders[index + 1] as string]);
  }
  return new Response(NO_BODY.has(status) ? null : text, {
    status,
    statusText: answer.statusMessage ?? '',
    headers,
  });
}

/**
 * `fetch` for the JSON reads of the chains and the attestation service, on node:http(s) with
 * keep-alive: the same answer for about half the CPU of Node's fetch (which builds web streams,
 * a request object and its own abort signal per call; with two reads per bridge plan, that was
 * most of the plan's cost).
 * The whole answer is read before it resolves, so the caller's `signal` (its timeout) bounds the
 * body too; an aborted or failed request rejects as fetch does (the signal's reason; `fetch
 * failed` with the socket's error as its cause). Redirects are never followed (a 3xx comes back as it is: not ok) and
 * only string bodies are sent.
 *
 * @example
 * const response = await keepAliveFetch(url, { signal: AbortSignal.timeout(4000) })
 * if (response.ok) await response.json()
 */
export function keepAliveFetch(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (input instanceof Request) throw new TypeError('keepAliveFetch: a URL, not a Request');
    const target = new URL(input);
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') {
      throw new TypeError(`keepAliveFetch: ${target.protocol} is not http(s)`);
    }
    const body = bodyOf(init);
    const headers = headersOf(init);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const request = (secure ? httpsRequest : httpRequest)(
      target,
      { method: init?.method ?? 'GET', agent: secure ? agents.https : agents.http, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', failed);
        answer.on('close', () => {
          if (!answer.complete) failed(new Error('terminated: the answer was cut short'));
        });
        answer.on('end', () => {
          signal?.removeEventListener('abort', abort);
          try {
            resolve(responseOf(answer, Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    // As fetch: an abort rejects with the signal's reason (a TimeoutError for a timeout), a
    // network failure with TypeError('fetch failed') whose cause is the socket's error (its
    // message names the host and port, which must not reach a detail shown to callers).
    function fail(error: unknown) {
      signal?.removeEventListener('abort', abort);
      reject(error);
    }
    function failed(error: unknown) {
      fail(new TypeError('fetch failed', { cause: error }));
    }
    function abort() {
      fail(signal?.reason);
      request.destroy();
    }
    signal?.addEventListener('abort', abort, { once: true });
    request.on('error', failed);
    request.end(body);
  });
}
