import { Agent, request as httpRequest } from 'node:http';

/** One HTTP answer, or why there was none. */
export type HttpOutcome =
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly body: unknown;
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    }
  /** The connection was refused (nothing listens): the request never reached a server. */
  | { readonly kind: 'refused' }
  /** The connection broke after the request was sent: its fate is unknown to the client. */
  | { readonly kind: 'broken'; readonly detail: string };

export interface CallOptions {
  readonly method?: 'GET' | 'POST' | 'DELETE';
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/** A keep-alive HTTP client of one service instance (`127.0.0.1:<port>`). */
export class HttpClient {
  private readonly agent: Agent;

  constructor(
    readonly port: number,
    sockets = 16,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  call(path: string, options: CallOptions = {}): Promise<HttpOutcome> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    return new Promise((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          path,
          method: options.method ?? 'GET',
          agent: this.agent,
          timeout: options.timeoutMs ?? 30_000,
          headers: {
            ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...options.headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('error', (error) => resolve({ kind: 'broken', detail: error.message }));
          res.on('end', () => {
            let body: unknown = text;
            try {
              body = text ? JSON.parse(text) : null;
            } catch {
              // Not JSON: kept as text.
            }
            resolve({ kind: 'answered', status: res.statusCode ?? 0, body, headers: res.headers });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer in time')));
      req.on('error', (error: NodeJS.ErrnoException) =>
        resolve(
          error.code === 'ECONNREFUSED'
            ? { kind: 'refused' }
            : { kind: 'broken', detail: `${error.code ?? ''} ${error.message}`.trim() },
        ),
      );
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The `Retry-After` of an answer in ms (default 1 s). */
export function retryAfterMs(outcome: HttpOutcome): number {
  if (outcome.kind !== 'answered') return 200;
  const value = Number(outcome.headers['retry-after']);
  return Number.isFinite(value) && value > 0 ? value * 1000 : 1000;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns something other than undefined, or fails after `timeoutMs`. */
export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}
