import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from './isPublicAddress';
import { PRIVATE_ADDRESS_ERROR_CODE, publicOnlyLookup } from './publicOnlyLookup';

export interface PostJsonParameters {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Connect to private and loopback addresses too (development and tests). */
  readonly allowPrivate: boolean;
}

// Keep-alive pools, one per policy so a socket opened under one is never reused under the other.
const agents = {
  strict: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
  open: { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) },
};

/**
 * POSTs a JSON body with node:http(s) and resolves with the answer's status once its headers
 * arrive (the body is read and dropped; the timeout still bounds it). Redirects are never
 * followed. Unless `allowPrivate`, a non-public IP literal is refused and a host name may only
 * connect to public addresses ({@link publicOnlyLookup}).
 */
export function postJson({
  url,
  headers,
  body,
  timeoutMs,
  allowPrivate,
}: PostJsonParameters): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
      const refused: NodeJS.ErrnoException = new Error(`${host} is not a public address`);
      refused.code = PRIVATE_ADDRESS_ERROR_CODE;
      reject(refused);
      return;
    }
    const secure = target.protocol === 'https:';
    const pool = allowPrivate ? agents.open : agents.strict;
    const send = secure ? httpsRequest : httpRequest;
    const request = send(
      target,
      {
        method: 'POST',
        agent: secure ? pool.https : pool.http,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        signal: AbortSignal.timeout(timeoutMs),
        ...(allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (response) => {
        response.resume();
        response.on('error', () => undefined);
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
