import { randomUUID } from 'node:crypto';
import express from 'express';
import type { Express } from 'express';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Books } from '@yieldrouter/ledger';
import { defaultFeeSchedule } from '@yieldrouter/fees';
import type {
  ApyReader,
  BridgeRail,
  ChainAdapters,
  SolanaSwapQuote,
  SwapQuoteSource,
} from '@yieldrouter/engine';
import {
  WRITE_READY_CHAINS,
  buildEnablement,
  createApiStore,
  createCages,
  createCctpRail,
  createChainAdapters,
  createDefiLlamaReader,
  createUseCases,
  createJupiterQuoteSource,
  createCetusQuoteSource,
  createZeroExQuoteSource,
  deepFreeze,
  ledgerWallet,
  routeSwapsOf,
  solanaSuiRouteSwaps,
} from '@yieldrouter/engine';
import { JOB_NAMES, keeperIsHealthy, opsHealthReader, readBacklog } from '@yieldrouter/jobs';
import {
  createHttpMetrics,
  createLedgerMetrics,
  createMetricsRegistry,
  registerOpsHealthMetrics,
} from '@yieldrouter/metrics';
import type { Registry } from '@yieldrouter/metrics';
import { API_VERSION, buildOpenApiDocument, routeList } from '@yieldrouter/schemas';
import type { ApiConfig } from './env';
import { autoPayHandlers } from './handlers/autoPayHandlers';
import { autopilotHandlers } from './handlers/autopilotHandlers';
import { cageHandlers } from './handlers/cageHandlers';
import { bridgeHandlers } from './handlers/bridgeHandlers';
import { chainHandlers } from './handlers/chainHandlers';
import { guardrailHandlers } from './handlers/guardrailHandlers';
import { keeperHandlers } from './handlers/keeperHandlers';
import { metaHandlers } from './handlers/metaHandlers';
import { peerDocumentHandlers } from './handlers/peerDocumentHandlers';
import { peerWalletHandlers } from './handlers/peerWalletHandlers';
import { planHandlers } from './handlers/planHandlers';
import { swapHandlers } from './handlers/swapHandlers';
import { venueHandlers, venueSnapshots } from './handlers/venueHandlers';
import { walletHandlers } from './handlers/walletHandlers';
import { webhookHandlers } from './handlers/webhookHandlers';
import { KeyResolver } from './http/auth';
import { consoleRouter } from './http/console';
import { docsRouter } from './http/docs';
import { versionHeaders } from './http/versionHeaders';
import { errorHandler, notFoundHandler } from './http/errorHandler';
import { notOfferedHandler } from './http/notOffered';
import { keyMaterialKind } from './http/findKeyMaterial';
import { accessRecorder } from './http/accessRecorder';
import type { Handlers } from './http/mountRoutes';
import { mountRoutes } from './http/mountRoutes';
import { guardHeaders } from './http/requestGuard';
import { ApiError } from './http/apiError';
import { RATE_LIMIT_PREFIX, RateLimiter } from './http/rateLimiter';
import { refusalGateInFront } from './http/refusalGate';
import { fixedHeaders, recordStaticHeaders } from './http/staticHeaders';
import { AuthFailures } from './http/authFailures';
import { corsPolicy } from './http/corsPolicy';
import { MCP_PATH, mcpEndpoint } from './mcp/mcpEndpoint';
import { mountOpsEndpoints } from './http/opsEndpoints';
import { keeperAccess } from './keeperAccess';

export interface AppDeps {
  readonly config: ApiConfig;
  readonly db: Books;
  readonly redis: Redis | null;
  readonly logger: Logger;
  /** Redis key prefix of the rate limiter (tests isolate themselves with it). */
  readonly rateLimitPrefix?: string;
  /** The APY source reader; DefiLlama-compatible from `config` when not given. */
  readonly apyReader?: ApyReader;
  /** Chain adapters; built from `config` when not given. */
  readonly adapters?: ChainAdapters;
  /** The bridge rail; CCTP v2 from `config` (SVC_CCTP_*, SVC_<CHAIN>_CCTP_*) when not given. */
  readonly bridgeRail?: BridgeRail;
  /** The EVM swap quote source; 0x from `config` (SVC_ZEROX_*) when not given. */
  readonly evmQuoteSource?: SwapQuoteSource;
  /** Tests: the Solana quote source instead of the configured Jupiter one. */
  readonly solanaQuoteSource?: SwapQuoteSource<SolanaSwapQuote>;
  /** The process's metrics registry (shared with an in-process keeper); a new one when not given. */
  readonly registry?: Registry;
  /**
   * Tests only: operations mounted without their handler, as a route that has not landed is
   * (501 NOT_IMPLEMENTED after auth and validation; `implemented: false` in the catalogs).
   */
  readonly withheldHandlers?: readonly string[];
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const JSON_BODY_TYPES = ['application/json', 'text/plain'];

/** Builds the Express app without listening (tests call this; server.ts listens). */
export function createApp(deps: AppDeps): Express {
  const { config, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // Security headers on every response (nosniff, frame and referrer policy, a CSP that lets
  // /docs load only its own scripts), and CORS for the configured origins only.
  // helmet's headers do not depend on the request: recorded once, set from the record.
  const securityHeaders = recordStaticHeaders([
    helmet({ referrerPolicy: { policy: 'no-referrer' } }),
  ]);
  app.use(fixedHeaders(securityHeaders));
  if (config.corsOrigins.length > 0) app.use(corsPolicy(config.corsOrigins));

  // The media type is checked below: a body without a Content-Type, or labelled text/plain (what
  // fetch() sends for a string body: v1 clients do), is read as JSON; another type is refused.
  const parseJson = express.json({ limit: config.bodyLimitBytes, strict: true, type: () => true });
  // Header values computed once, not per request (GET routes are benchmarked).
  const setVersionHeaders = versionHeaders(API_VERSION, config.clientVersions);
  // GET /metrics: request durations, replays, refusals, ledger writes, and ops health.
  const registry = deps.registry ?? createMetricsRegistry();
  const httpMetrics = createHttpMetrics(registry);
  const recordAccess = accessRecorder(logger, httpMetrics);

  // One middleware for every request: request id, version header, access log, and the
  // JSON-only rule for bodies (the JSON parser runs only when there is a body; a body without
  // a Content-Type header is parsed as JSON).
  app.use((req, res, next) => {
    const incoming = req.headers['x-request-id'];
    // A caller's id is kept unless it looks like key material (then it is neither logged nor
    // echoed: a fresh id replaces it, and the request is refused below).
    const requestId =
      typeof incoming === 'string' &&
      REQUEST_ID.test(incoming) &&
      keyMaterialKind(incoming, 'header.X-Request-Id') === undefined
        ? incoming
        : `req_${randomUUID()}`;
    res.locals['requestId'] = requestId;
    res.setHeader('X-Request-Id', requestId);
    setVersionHeaders(req, res);
    recordAccess(req, res, requestId);
    try {
      guardHeaders(req.headers);
    } catch (error) {
      next(error);
      return;
    }
    const length = req.headers['content-length'];
    const hasBody =
      req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) {
      next();
    } else if (req.headers['content-type'] !== undefined && !req.is(JSON_BODY_TYPES)) {
      next(new ApiError('UNSUPPORTED_MEDIA_TYPE', 'body: Content-Type must be application/json'));
    } else {
      parseJson(req, res, next);
    }
  });

  // Configuration is fixed for the life of the process: the chains' enablement is built once.
  const enablement = deepFreeze(
    buildEnablement({ switches: config.switches, writeReadyChains: WRITE_READY_CHAINS }),
  );
  // Handlers call engine use cases on the books; they never hold the database themselves.
  const useCases = createUseCases(deps.db, createLedgerMetrics(registry));
  const handlers: Handlers = {};
  const implemented = () => new Set(Object.keys(handlers));
  let openApiJson: string | undefined;
  const openApi = () => {
    openApiJson ??= JSON.stringify(buildOpenApiDocument(routeList, { implemented: implemented() }));
    return openApiJson;
  };
  Object.assign(
    handlers,
    metaHandlers({
      config,
      booksReachable: useCases.booksReachable,
      redis: deps.redis,
      enablement,
      fees: defaultFeeSchedule,
      routes: routeList,
      implemented,
      openApiJson: openApi,
      startedAt: Date.now(),
    }),
  );

  const adapters =
    deps.adapters ??
    createChainAdapters({
      chains: config.chains,
      ids: config.onChainIds,
      switches: config.switches,
    });
  Object.assign(handlers, chainHandlers({ adapters }));
  Object.assign(
    handlers,
    cageHandlers({ cages: createCages({ chains: config.chains, cages: config.cages }) }),
  );
  const bridgeRail =
    deps.bridgeRail ?? createCctpRail({ bridges: config.bridges, chains: config.chains, logger });
  Object.assign(
    handlers,
    bridgeHandlers({
      bridge: useCases.bridge,
      adapters,
      bridges: config.bridges,
      rail: bridgeRail,
      resolveKey: (raw) => keys.resolve(raw),
    }),
  );
  const zeroEx = config.swaps.zeroEx;
  const evmSource =
    deps.evmQuoteSource ??
    (zeroEx && createZeroExQuoteSource({ ...zeroEx, quoteTtlMs: config.swaps.quoteTtlMs }));
  const solanaSource =
    deps.solanaQuoteSource ??
    (config.jupiter.source &&
      createJupiterQuoteSource({ ...config.jupiter.source, quoteTtlMs: config.swaps.quoteTtlMs }));
  const suiSource =
    config.cetus.source &&
    createCetusQuoteSource({ ...config.cetus.source, quoteTtlMs: config.swaps.quoteTtlMs });
  // Cross-asset routes and deposits swap through the same sources as the swap plans: 0x on the
  // EVM chains, Jupiter on Solana, Cetus on Sui.
  const swaps = routeSwapsOf(
    config.swaps,
    evmSource,
    solanaSuiRouteSwaps({ jupiter: config.jupiter, solanaSource, cetus: config.cetus, suiSource }),
  );
  const snapshots = venueSnapshots({
    venueUseCases: useCases.venues,
    venues: config.venues,
    enablement,
    ttlMs: config.discoveryCacheMs,
  });
  Object.assign(
    handlers,
    venueHandlers({
      venueUseCases: useCases.venues,
      venues: config.venues,
      bridging: { bridges: config.bridges, rail: bridgeRail },
      resolveKey: (raw) => keys.resolve(raw),
      enablement,
      adapters,
      snapshots,
      treasuries: config.treasuries,
      swaps,
      apyReader:
        deps.apyReader ??
        createDefiLlamaReader({ baseUrl: config.apy.baseUrl, timeoutMs: config.apy.timeoutMs }),
    }),
  );
  Object.assign(
    handlers,
    walletHandlers({
      wallet: useCases.wallet,
      adapters,
      bridgeRail,
      bridging: { bridges: config.bridges, rail: bridgeRail },
      venues: config.venues,
      snapshots,
      broadcastEnabled: (chain) => config.switches[chain].broadcastEnabled,
      swaps,
      treasuries: config.treasuries,
    }),
  );
  Object.assign(
    handlers,
    autopilotHandlers({
      autopilot: useCases.autopilot,
      adapters,
      venues: config.venues,
      snapshots,
      treasuries: config.treasuries,
    }),
  );
  Object.assign(
    handlers,
    guardrailHandlers({ guardrail: useCases.guardrail, adapters, snapshots }),
  );
  Object.assign(
    handlers,
    autoPayHandlers({
      autoPay: useCases.autoPay,
      adapters,
      venues: config.venues,
      treasuries: config.treasuries,
    }),
  );
  Object.assign(handlers, planHandlers({ plan: useCases.plan, adapters, enablement, snapshots }));
  Object.assign(
    handlers,
    swapHandlers({
      swap: useCases.swap,
      adapters,
      swaps: config.swaps,
      evmSource,
      jupiter: config.jupiter,
      solanaSource,
      cetus: config.cetus,
      suiSource,
    }),
  );
  const access = keeperAccess({ redis: deps.redis, prefix: config.keeper.prefix, logger });
  const opsHealth = opsHealthReader(deps.db);
  Object.assign(handlers, keeperHandlers({ opsHealth, access, keeper: config.keeper }));
  registerOpsHealthMetrics(registry, {
    read: () =>
      opsHealth({
        redis: deps.redis,
        queues: access.queues(),
        jobs: JOB_NAMES,
        prefix: config.keeper.prefix,
        now: () => new Date(),
      }),
    healthy: keeperIsHealthy,
    backlog: () => readBacklog(deps.db, new Date()),
  });
  Object.assign(
    handlers,
    webhookHandlers({ webhook: useCases.webhook, adapters, settings: config.webhooks }),
  );

  // Peer (v1) clients' routes: views of and aliases over the handlers and use cases above.
  Object.assign(
    handlers,
    peerWalletHandlers({
      handlers,
      autoPay: useCases.autoPay,
      autopilot: useCases.autopilot,
      wallet: useCases.wallet,
      adapters,
      venues: config.venues,
      snapshots,
    }),
    peerDocumentHandlers({
      snapshots,
      enablement,
      chains: config.chains,
      treasuries: config.treasuries,
      protocolYieldSkimBps: defaultFeeSchedule.yieldSkimBps,
    }),
  );

  for (const operationId of deps.withheldHandlers ?? []) {
    Reflect.deleteProperty(handlers, operationId);
  }

  // API keys and Idempotency-Key records: the one narrow interface the HTTP layer stores through.
  const store = createApiStore(deps.db);
  // One canonical wallet form for key scopes and for the writes Idempotency-Keys record.
  const walletOf = (address: string) => ledgerWallet(adapters, address);
  // Rate-limit counters and failed-authentication counts share one Redis key prefix.
  const limitPrefix = deps.rateLimitPrefix ?? RATE_LIMIT_PREFIX;
  const keys = new KeyResolver({
    store,
    secret: config.apiKeySecret,
    staticKeys: config.staticKeys,
    cacheTtlMs: config.apiKeyCacheMs,
    walletOf,
  });
  const authFailures = new AuthFailures({
    redis: deps.redis,
    prefix: limitPrefix,
    ...config.authFailures,
  });
  // The MCP server (Streamable HTTP): its tools call the routes below in process.
  const mcp = mcpEndpoint({
    app,
    routes: routeList,
    keys,
    authFailures,
    implemented,
    pollIntervalMs: config.mcpPollMs,
    toolset: config.mcpToolset,
  });
  app.all(MCP_PATH, (req, res, next) => {
    res.locals['route'] = MCP_PATH;
    mcp(req, res, next);
  });
  mountOpsEndpoints(app, {
    keys,
    authFailures,
    registry,
    access,
    dashboardWrite: config.queueDashboardWrite,
  });
  // Requests of a caller whose window the limiter refused are answered before Express.
  const gate = refusalGateInFront(app, {
    keyHash: (raw) => keys.hashOf(raw),
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins.length > 0,
    limits: config.rateLimit,
    staticHeaders: [...securityHeaders, ...recordStaticHeaders([setVersionHeaders])],
    onRefused: ({ kind, route, method, seconds }) => {
      httpMetrics.rateLimited(kind);
      httpMetrics.request(route, method, 429, seconds);
    },
  });
  mountRoutes(app, {
    gate,
    observer: httpMetrics,
    routes: routeList,
    handlers,
    keys,
    authFailures,
    rateLimiter: new RateLimiter({
      redis: deps.redis,
      windowSeconds: config.rateLimit.windowSeconds,
      logger,
      prefix: limitPrefix,
    }),
    limits: config.rateLimit,
    idempotency: store.idempotency,
    idempotencyLockMs: config.idempotencyLockMs,
    audit: store.audit,
    walletOf,
    validateResponses: config.nodeEnv !== 'production',
  });
  app.use(docsRouter('/api/v1/openapi.json'));
  app.use(consoleRouter());
  app.use(notOfferedHandler);
  app.use(notFoundHandler);
  app.use(errorHandler(logger, config.bodyLimitBytes, store.isUnavailable));
  return app;
}
