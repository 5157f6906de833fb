import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type {
  AuditRecords,
  CarriedRecord,
  IdempotencyRecords,
  WriteRecorder,
} from '@yieldrouter/engine';
import type { HttpObserver } from '@yieldrouter/metrics';
import type { OperationId, RouteDefinition, Routes } from '@yieldrouter/schemas';
import { InvalidChainInputError, routePaths } from '@yieldrouter/schemas';
import { ApiError } from './apiError';
import { auditCall } from './auditCalls';
import type { KeyResolver, Principal } from './auth';
import { authenticate, optionalPrincipal, principalAllowsWallet } from './auth';
import type { AuthFailures } from './authFailures';
import {
  IDEMPOTENCY_KEY_HEADER,
  answerRecorder,
  JSON_CONTENT_TYPE,
  idempotencyRequestHash,
  readIdempotencyKey,
  respondIdempotently,
  storedIdempotencyKey,
} from './idempotency';
import type { RateLimiter } from './rateLimiter';
import type { GatedRoute, RefusalGate } from './refusalGate';
import type { MountedRoute } from './routeTable';
import { RouteTable } from './routeTable';
import { guardRequestPart } from './requestGuard';
import { ANSWER_BODY, IN_PROCESS, checkResponse, responseOf, serialize } from './responseBytes';
import { badRequestFromZod } from './zodIssues';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<R extends RouteDefinition> {
  readonly params: Parsed<R['request']['params']>;
  readonly query: Parsed<R['request']['query']>;
  readonly body: Parsed<R['request']['body']>;
  readonly principal: Principal | null;
  readonly requestId: string;
  readonly header: (name: string) => string | undefined;
  /**
   * When the request carries an Idempotency-Key: a recorder to hand to the use case, which
   * calls it in the transaction that writes its effect, so the answer
   * (`toResult(outcome)`) is stored with the effect and a retry gets it whatever the timing.
   * Undefined without a key.
   */
  readonly recordWrite: <T>(
    toResult: (outcome: T) => HandlerResult,
  ) => WriteRecorder<T> | undefined;
  /** The call's audit rows, for a group-committed write (settle) to carry (`AuditedCall`). */
  readonly carryRecord: <T>(
    toResult: (outcome: T) => HandlerResult,
  ) => CarriedRecord<T> | undefined;
}

export interface HandlerResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Handler<R extends RouteDefinition> = (
  context: HandlerContext<R>,
) => HandlerResult | Promise<HandlerResult>;

export type Handlers = { readonly [K in OperationId]?: Handler<Routes[K]> };

export interface MountRoutesOptions {
  readonly routes: readonly RouteDefinition[];
  readonly handlers: Handlers;
  readonly keys: KeyResolver;
  /** Failed authentication, counted per address and key prefix, with back-off. */
  readonly authFailures: AuthFailures;
  readonly rateLimiter: RateLimiter;
  readonly limits: { publicLimit: number; keyedLimit: number };
  /** Validate every response against its schema (tests and development). */
  readonly validateResponses: boolean;
  /** Where Idempotency-Key records are kept (the app's store). */
  readonly idempotency: IdempotencyRecords;
  /** How long an Idempotency-Key claim holds (SVC_IDEMPOTENCY_LOCK_MS). */
  readonly idempotencyLockMs: number;
  /**
   * The canonical form of a wallet address (an EVM address in any letter case is one wallet):
   * a write's outcome is kept per wallet, operation and Idempotency-Key.
   */
  readonly walletOf?: (address: string) => string;
  /** The wallets' audit trail, written around every call of an `audited` route. */
  readonly audit?: AuditRecords;
  /** Where 429 refusals and Idempotency-Key replays are counted (the process's metrics). */
  readonly observer?: Pick<HttpObserver, 'rateLimited' | 'idempotencyReplay'>;
  /** Remembers the limiter's refusals and answers the rest of their window before Express. */
  readonly gate?: RefusalGate;
}

const toExpressPath = (path: string) => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

function parse<S extends z.ZodType | undefined>(
  schema: S,
  value: unknown,
  location: string,
): Parsed<S> {
  if (!schema) return undefined as Parsed<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw badRequestFromZod(location, result.error);
  return result.data as Parsed<S>;
}

function setRateHeaders(res: Response, decision: Awaited<ReturnType<RateLimiter['consume']>>) {
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
}

/**
 * Mounts every manifest route (canonical path and legacy aliases) with one generic adapter:
 * authenticate → rate-limit → parse with zod → handler → serialize. Routes without a handler
 * answer 501 NOT_IMPLEMENTED. A known path with another method answers 405.
 */
export function mountRoutes(app: Express, options: MountRoutesOptions): void {
  const methodsByPath = new Map<string, Set<string>>();
  const registered: MountedRoute[] = [];
  const gated: GatedRoute[] = [];
  for (const route of options.routes) {
    const handler = options.handlers[route.operationId as OperationId] as
      Handler<RouteDefinition> | undefined;
    const idempotent = route.request.headers?.includes(IDEMPOTENCY_KEY_HEADER) === true;
    const { canonical, aliases } = routePaths(route);
    const expressHandler: RequestHandler = (req, res, next) => {
      // The route label of the request metrics: the canonical template, whichever alias.
      res.locals['route'] = canonical;
      run(route, handler, idempotent, req, res, options).catch(next);
    };
    for (const path of [canonical, ...aliases]) {
      registered.push({ method: route.method.toUpperCase(), path, handler: expressHandler });
      const method = route.method.toUpperCase();
      gated.push({ method, path, keyed: route.auth !== 'public', label: canonical });
      const methods = methodsByPath.get(toExpressPath(path)) ?? new Set<string>();
      methods.add(route.method.toUpperCase());
      if (route.method === 'get') methods.add('HEAD');
      methodsByPath.set(toExpressPath(path), methods);
    }
  }
  options.gate?.setRoutes(gated);
  app.use(fastRouteDispatcher(registered));
  for (const { method, path, handler } of registered) {
    app[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete' | 'patch'](
      toExpressPath(path),
      handler,
    );
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods].sort().join(', ');
    app.all(path, (req: Request, res: Response, next: NextFunction) => {
      // OPTIONS (RFC 9110): the methods of the path. Preflights of allowed origins were answered
      // by the CORS policy before this; others get no CORS headers here.
      if (req.method === 'OPTIONS') {
        res.status(204).setHeader('Allow', `${allow}, OPTIONS`).end();
        return;
      }
      next(
        new ApiError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allow}`, {
          headers: { Allow: allow },
        }),
      );
    });
  }
}

/**
 * The hot path: the route a request would reach through Express's layer list, found through a
 * {@link RouteTable} instead (a Map lookup for static paths, a short scan of the method's
 * patterns with as many segments for parameterised ones). Whatever the table is not sure
 * about falls through to the regular Express routes, which are all still mounted, so the
 * answer is the same either way.
 */
function fastRouteDispatcher(registered: readonly MountedRoute[]): RequestHandler {
  const table = new RouteTable(registered);
  // Named: dispatch.test.ts finds this layer by name to compare the app with Express alone.
  return function fastRouteDispatch(req, res, next) {
    const found = table.lookup(req.method, req.path);
    if (!found) {
      next();
      return;
    }
    req.params = found.params;
    found.handler(req, res, next);
  };
}

async function run(
  route: RouteDefinition,
  handler: Handler<RouteDefinition> | undefined,
  idempotent: boolean,
  req: Request,
  res: Response,
  options: MountRoutesOptions,
): Promise<void> {
  // Keyed answers are one caller's data: no shared or browser cache keeps them.
  if (route.auth !== 'public') res.setHeader('Cache-Control', 'no-store');
  const principal = route.auth === 'public' ? null : await authenticate(route, req, options);
  const identity = principal ? `key:${principal.keyId}` : `ip:${req.ip ?? 'unknown'}`;
  const limit = principal ? options.limits.keyedLimit : options.limits.publicLimit;
  const decision =
    options.rateLimiter.tryConsumeLocal(identity, limit) ??
    (await options.rateLimiter.consume(identity, limit));
  setRateHeaders(res, decision);
  // None left for this caller in the window (the shared count has reached the limit): its next
  // requests are answered by the gate, before authentication or anything else.
  if (decision.exhausted) options.gate?.remember(req, principal !== null, decision.resetAtMs);
  if (!decision.allowed) {
    options.observer?.rateLimited(principal ? 'keyed' : 'public');
    throw new ApiError('RATE_LIMITED', `rate limit of ${decision.limit} requests exceeded`, {
      headers: { 'Retry-After': String(decision.resetSeconds) },
    });
  }
  // Express 5 parses the query string again on every read of req.query: once, when there is one.
  const rawQuery: unknown = req.url.includes('?') ? req.query : undefined;
  guardRequest(route, req, rawQuery);
  const params = parse(route.request.params, req.params, 'path');
  // The wallet scope before the query and body: a caller with no access to the wallet learns
  // nothing of the route's schema.
  if (principal && route.walletParam) {
    const wallet = (params as Record<string, string>)[route.walletParam] ?? '';
    if (!principalAllowsWallet(principal, wallet)) {
      throw new ApiError('WALLET_SCOPE', `this key is not allowed for wallet ${wallet}`, {
        field: `path.${route.walletParam}`,
      });
    }
  }
  const query = parse(route.request.query, route.request.query && (rawQuery ?? {}), 'query');
  const body = parse(route.request.body, req.body ?? {}, 'body');
  const idempotencyKey = idempotent
    ? readIdempotencyKey(req.header(IDEMPOTENCY_KEY_HEADER), body as Record<string, unknown>)
    : undefined;
  // Checked last so that callers of a planned route still get real validation and auth answers.
  if (!handler) {
    throw new ApiError(
      'NOT_IMPLEMENTED',
      `${route.operationId} is declared but its handler has not landed yet (see /api/v1/svc/routes)`,
    );
  }
  const requestId = String(res.locals['requestId']);
  const audit = await auditCall(route, options, { params, principal, requestId });
  const invoke = (context: HandlerContext<RouteDefinition>, validate: boolean) =>
    audit.run(() => callHandler(route, handler, context, validate));
  const context: HandlerContext<RouteDefinition> = {
    params,
    query,
    body,
    principal,
    requestId,
    // A method, not an arrow: under tsx (esbuild keepNames) an arrow in a property is renamed
    // with Object.defineProperty on every request.
    header(name) {
      return req.header(name);
    },
    recordWrite(toResult) {
      return audit.recorder(toResult);
    },
    carryRecord(toResult) {
      return audit.carried(toResult);
    },
  };
  if (idempotencyKey !== undefined) {
    const wallet = route.walletParam
      ? ((params as Record<string, string>)[route.walletParam] ?? null)
      : null;
    // The caller's identity: its API key (sent to a public route too), else its address; an
    // anonymous caller and a keyed one never share a record.
    const caller = principal ?? (await optionalPrincipal(req, options.keys));
    const scope = caller ? `key:${caller.keyId}` : `public:${req.ip ?? 'unknown'}`;
    // A keyed route naming a wallet in its path writes for that wallet, whichever of its keys
    // calls; an anonymous caller (a permissionless route) keeps to its own records.
    const address = (params as Record<string, unknown> | undefined)?.['address'];
    const validate = options.validateResponses;
    await respondIdempotently(res, {
      records: options.idempotency,
      scope,
      writeScope:
        typeof address === 'string' && principal
          ? `wallet:${options.walletOf?.(address) ?? address}`
          : scope,
      wallet,
      operation: route.operationId,
      key: storedIdempotencyKey(idempotencyKey),
      requestHash: idempotencyRequestHash(route.operationId, { params, query, body }),
      requestId,
      lockMs: options.idempotencyLockMs,
      execute: async (record) => {
        const result = await invoke(
          {
            ...context,
            recordWrite: <T>(toResult: (outcome: T) => HandlerResult) =>
              audit.recorder<T>(
                toResult,
                answerRecorder(record, (outcome: T) =>
                  responseOf(route, toResult(outcome), validate),
                ),
              ),
          },
          validate,
        );
        return responseOf(route, result, false);
      },
    });
    if (res.getHeader('Idempotent-Replayed') === 'true') {
      options.observer?.idempotencyReplay(route.operationId);
    }
    return;
  }
  const result = await invoke(context, options.validateResponses);
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  const etag = result.headers?.['ETag'];
  if (result.status === 200 && etag && matchesEtag(req.header('if-none-match'), etag)) {
    res.status(304).end();
    return;
  }
  if (IN_PROCESS in req) {
    // An in-process caller takes the object itself (the route's own answer, not a copy).
    (res as unknown as Record<symbol, unknown>)[ANSWER_BODY] = result.body;
    res.statusCode = result.status;
    res.setHeader('Content-Type', JSON_CONTENT_TYPE);
    res.end();
    return;
  }
  // Written directly (not res.send): the bytes are final, no ETag or freshness work to redo.
  const bytes = serialize(result.body);
  res.statusCode = result.status;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

/**
 * Every part of every request is refused when it carries key material, control characters or
 * deep nesting (before it is parsed, stored or logged); a route without a body schema takes no
 * body but `{}`.
 */
function guardRequest(route: RouteDefinition, req: Request, rawQuery: unknown): void {
  guardRequestPart(req.params, 'path');
  if (rawQuery !== undefined) guardRequestPart(rawQuery, 'query');
  const body: unknown = req.body;
  if (body === undefined) return;
  guardRequestPart(body, 'body');
  if (route.request.body) return;
  const empty =
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.keys(body).length === 0;
  if (!empty) {
    throw new ApiError('BAD_REQUEST', 'body: this route takes no body (send none, or {})', {
      field: 'body',
    });
  }
}

async function callHandler(
  route: RouteDefinition,
  handler: Handler<RouteDefinition>,
  context: HandlerContext<RouteDefinition>,
  validate: boolean,
): Promise<HandlerResult> {
  let result: HandlerResult;
  try {
    result = await handler(context);
  } catch (error) {
    throw error instanceof InvalidChainInputError ? badChainInput(error, context) : error;
  }
  if (validate) checkResponse(route, result);
  return result;
}

/**
 * A chain adapter refusing a value the caller sent (a txId that is no digest of the chain, an
 * address of another chain): 400 naming the request field that carried it.
 */
function badChainInput(
  error: InvalidChainInputError,
  context: HandlerContext<RouteDefinition>,
): ApiError {
  const carries = (part: unknown) =>
    typeof part === 'object' && part !== null && Object.hasOwn(part, error.field);
  const field = carries(context.body)
    ? `body.${error.field}`
    : carries(context.params)
      ? `path.${error.field}`
      : carries(context.query)
        ? `query.${error.field}`
        : undefined;
  const message = field ? error.message.replace(`${error.field}:`, `${field}:`) : error.message;
  return new ApiError('BAD_REQUEST', message, field ? { field } : {});
}

/** RFC 9110 If-None-Match: `*`, or any listed tag equal to ours (weak comparison). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  const ours = strip(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === ours);
}
