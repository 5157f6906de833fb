import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { JSON_CONTENT_TYPE } from './idempotency';
import { RouteTable } from './routeTable';

/** A mounted route as the gate sees it: whether its rate-limit identity is the key or the address. */
export interface GatedRoute {
  readonly method: string;
  readonly path: string;
  readonly keyed: boolean;
  /** The route's label in the request metrics (its canonical template). */
  readonly label: string;
}

/** What the gate counts of each refusal (the process's request metrics). */
export interface GateRefusal {
  readonly kind: 'keyed' | 'public';
  readonly route: string;
  readonly method: string;
  readonly seconds: number;
}

export interface RefusalGateOptions {
  /** The HMAC of a raw API key (the store's): keyed identities are kept by hash, never raw. */
  readonly keyHash: (rawKey: string) => string;
  /** The caller's address as Express derives it (`trust proxy` included). */
  readonly ipOf: (req: IncomingMessage) => string;
  readonly limits: { readonly publicLimit: number; readonly keyedLimit: number };
  /** Headers every answer carries (security and version headers), computed once. */
  readonly staticHeaders: readonly (readonly [string, string])[];
  /** Counts a refusal (the process's metrics). */
  readonly onRefused?: (refusal: GateRefusal) => void;
  readonly now?: () => number;
}

// The route table's handlers are tags: which identity a path's limit is counted under, and
// the route's metrics label.
type Tag = RequestHandler & { readonly keyed: boolean; readonly label: string };
const tagOf = (keyed: boolean, label: string): Tag =>
  Object.assign((() => undefined) as RequestHandler, { keyed, label });
const MAX_ENTRIES = 100_000;

/**
 * Answers 429 for a caller whose rate-limit window is known to be exhausted, before Express,
 * the body parser, authentication, the database, Redis or the access log see the request.
 *
 * The limiter stays the authority: the gate only remembers its refusals (`remember`), per
 * identity, until the end of the refused window, and answers the identity's next requests in
 * that window itself. The identity is the route's: the key's HMAC on a keyed route (a raw key
 * is never kept), the caller's address on a public one. Across API processes each one learns
 * its refusals from the shared Redis counter, so the limit holds for all of them; a request
 * after the window ends goes to the limiter again.
 */
export class RefusalGate {
  private readonly until = new Map<string, number>();
  /** Every entry has expired once the clock passes this (the map is cleared at once). */
  private latestReset = 0;
  private table: RouteTable | undefined;
  private readonly now: () => number;
  /** The static headers, flattened as `writeHead` takes them. */
  private readonly headers: readonly string[];

  constructor(private readonly options: RefusalGateOptions) {
    this.now = options.now ?? Date.now;
    this.headers = options.staticHeaders.flat();
  }

  /** The mounted routes (canonical paths and aliases), set once by `mountRoutes`. */
  setRoutes(routes: readonly GatedRoute[]): void {
    this.table = new RouteTable(
      routes.map(({ method, path, keyed, label }) => ({
        method,
        path,
        handler: tagOf(keyed, label),
      })),
    );
  }

  /** The limiter refused `req` on a route of that kind until `resetAtMs` (its window's end). */
  remember(req: IncomingMessage, keyed: boolean, resetAtMs: number): void {
    const identity = this.identityOf(req, keyed);
    if (identity === undefined) return;
    if (this.until.size >= MAX_ENTRIES) this.until.clear();
    this.until.set(identity, resetAtMs);
    if (resetAtMs > this.latestReset) this.latestReset = resetAtMs;
  }

  /** Whether the gate answered `req` (429); false hands it on, untouched. */
  refuse(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.until.size === 0) return false;
    const started = process.hrtime.bigint();
    const now = this.now();
    if (now >= this.latestReset) {
      this.until.clear();
      return false;
    }
    const table = this.table;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const found = table?.lookup(req.method ?? 'GET', query === -1 ? url : url.slice(0, query));
    if (!found) return false;
    const { keyed, label } = found.handler as Tag;
    const identity = this.identityOf(req, keyed);
    if (identity === undefined) return false;
    const resetAt = this.until.get(identity);
    if (resetAt === undefined) return false;
    if (now >= resetAt) {
      this.until.delete(identity);
      return false;
    }
    this.answer(res, keyed, Math.max(1, Math.ceil((resetAt - now) / 1000)));
    this.options.onRefused?.({
      kind: keyed ? 'keyed' : 'public',
      route: label,
      method: req.method ?? 'GET',
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    });
    return true;
  }

  private identityOf(req: IncomingMessage, keyed: boolean): string | undefined {
    if (!keyed) return `ip:${this.options.ipOf(req)}`;
    const raw = req.headers['x-api-key'];
    return typeof raw === 'string' && raw !== '' ? `key:${this.options.keyHash(raw)}` : undefined;
  }

  private answer(res: ServerResponse, keyed: boolean, seconds: number): void {
    const limit = keyed ? this.options.limits.keyedLimit : this.options.limits.publicLimit;
    const requestId = `req_${randomUUID()}`;
    const body = Buffer.from(
      `{"code":"RATE_LIMITED","message":"rate limit of ${limit} requests exceeded","requestId":"${requestId}"}`,
    );
    const retry = String(seconds);
    const headers = this.headers.slice();
    headers.push('X-Request-Id', requestId);
    // As Express answers: a keyed route's answers are one caller's and never cached.
    if (keyed) headers.push('Cache-Control', 'no-store');
    headers.push(
      'RateLimit-Limit',
      String(limit),
      'RateLimit-Remaining',
      '0',
      'RateLimit-Reset',
      retry,
      'Retry-After',
      retry,
      'Content-Type',
      JSON_CONTENT_TYPE,
      'Content-Length',
      String(body.length),
    );
    res.writeHead(429, headers);
    res.end(body);
  }
}

/** `req.ip` as Express computes it (its `trust proxy` setting), for a request Express has not seen. */
export function expressIp(app: { readonly request: object }, req: IncomingMessage): string {
  const ip: unknown = Reflect.get(app.request, 'ip', {
    app,
    socket: req.socket,
    connection: req.socket,
    headers: req.headers,
  });
  return typeof ip === 'string' ? ip : 'unknown';
}

type Handle = (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;

/**
 * Runs `answered` on every request before Express touches it (no prototype swap, no router):
 * Express goes on only when it returns false. In place of the app's own `handle`, so a server
 * the app listens with and a test's `supertest(app)` both go through it.
 */
export function inFrontOfExpress(
  app: object,
  answered: (req: IncomingMessage, res: ServerResponse) => boolean,
): void {
  const target = app as { handle: Handle };
  const handle = target.handle.bind(app);
  target.handle = (req, res, next) => {
    if (!answered(req, res)) handle(req, res, next);
  };
}

/**
 * A gate in front of `app`: `ipOf` as Express's `req.ip` (the socket's address without a
 * trusted proxy); a browser's cross-origin call (with CORS configured) keeps to Express, whose
 * answers carry the CORS headers.
 */
export function refusalGateInFront(
  app: { readonly request: object },
  options: Omit<RefusalGateOptions, 'ipOf'> & {
    readonly trustProxy: boolean;
    readonly corsOrigins: boolean;
  },
): RefusalGate {
  const { trustProxy, corsOrigins, ...rest } = options;
  const gate = new RefusalGate({
    ...rest,
    ipOf: trustProxy
      ? (req) => expressIp(app, req)
      : (req) => req.socket.remoteAddress ?? 'unknown',
  });
  inFrontOfExpress(
    app,
    (req, res) => !(corsOrigins && req.headers.origin !== undefined) && gate.refuse(req, res),
  );
  return gate;
}
