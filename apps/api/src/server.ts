import { errorMessage } from '@yieldrouter/schemas';
import {
  NO_VENUE_READY_HINT,
  VENUE_CATALOG,
  VENUE_CATALOG_VERSION,
  createServices,
  requiredVenueIds,
} from '@yieldrouter/engine';
import type { ApyReader, Books, BridgeRail, ChainAdapters } from '@yieldrouter/engine';
import { startKeeper } from '@yieldrouter/jobs';
import { createKeeperMetrics, createMetricsRegistry } from '@yieldrouter/metrics';
import type { Registry } from '@yieldrouter/metrics';
import type { RunningKeeper } from '@yieldrouter/jobs';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createApp } from './app';
import { firstOwnerKeyLines, issueFirstOwnerKey } from './firstOwnerKey';
import { answerClientErrors } from './http/clientErrors';
import { drainableServer } from './http/drainableServer';
import { ConfigError, parseEnv } from './env';
import type { ApiConfig } from './env';
import { createLogger } from './logger';
import { connectRedis } from './redis';

/**
 * The embedded PGlite database is single-process, so on it the keeper runs inside the API.
 * With DATABASE_URL the keeper is its own process (`pnpm start` launches both).
 */
async function startInProcessKeeper(
  config: ApiConfig,
  db: Books,
  redis: Redis,
  logger: Logger,
  shared: {
    readonly adapters: ChainAdapters;
    readonly apyReader: ApyReader;
    readonly bridgeRail: BridgeRail;
  },
  registry: Registry,
): Promise<RunningKeeper | null> {
  if (config.databaseUrl) return null;
  if (redis.status !== 'ready') {
    logger.warn(
      'Redis is unreachable: the keeper is off (no settlement watch, APY refresh or sweeps) until the API restarts with Redis',
    );
    return null;
  }
  return startKeeper({
    db,
    config,
    logger: logger.child({ component: 'keeper' }),
    mode: 'in-api',
    // Its job metrics are served at the API's GET /metrics.
    observer: createKeeperMetrics(registry),
    ...shared,
  });
}

async function main(): Promise<void> {
  const config = parseEnv(process.env);
  const logger = createLogger(config.logLevel, { buffered: true });
  if (config.usesDevSecret) {
    logger.warn(
      'SVC_API_KEY_SECRET is not set: using the development secret (never in production)',
    );
  }
  // The books (migrated, the catalog seeded), the chain adapters, one APY reader and one bridge
  // rail (one attestation-service budget and fee cache per process), shared by the API and an
  // in-process keeper.
  const services = await createServices({ config, dataDir: config.dataDir, logger });
  const db = services.books;
  logger.info({ database: db.kind, catalogVersion: VENUE_CATALOG_VERSION }, 'database ready');
  const anyVenueReady = VENUE_CATALOG.some(
    (venue) =>
      venue.readiness === 'ready' &&
      requiredVenueIds(venue.chain, venue.standard, venue.id).every(
        (name) => config.venues.ids[venue.id]?.[name],
      ),
  );
  if (!anyVenueReady) logger.warn(NO_VENUE_READY_HINT);
  // Development on the embedded database: a first owner key, printed once (never logged).
  const firstKey = await issueFirstOwnerKey(db, config);
  if (firstKey) process.stdout.write(firstOwnerKeyLines(firstKey));
  const redis = await connectRedis(config.redisUrl, logger);
  const shared = {
    adapters: services.adapters,
    apyReader: services.apyReader,
    bridgeRail: services.bridgeRail,
  };
  const registry = createMetricsRegistry();
  const keeper = await startInProcessKeeper(config, db, redis, logger, shared, registry);
  const app = createApp({ config, db, redis, logger, registry, ...shared });
  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = address && typeof address !== 'string' ? address.port : config.port;
    logger.info({ port, docs: '/docs' }, 'api listening');
  });
  answerClientErrors(server);
  const http = drainableServer(server);

  // SIGTERM / SIGINT: stop accepting, answer the requests under way (Connection: close), stop
  // the in-process keeper (its running jobs finish or go back to their queues), close Redis and
  // the database, exit 0 — all within SVC_DRAIN_TIMEOUT_MS.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    logger.info({ signal, timeoutMs: config.drainTimeoutMs }, 'draining');
    // The last second is for closing the pools.
    const budget = Math.max(config.drainTimeoutMs - 1000, 500);
    const backstop = setTimeout(() => {
      logger.error('drain did not finish in time: exiting');
      process.exit(1);
    }, config.drainTimeoutMs + 5000);
    backstop.unref();
    const drained = await http.drain(budget);
    if (drained.cut > 0) logger.warn({ cut: drained.cut }, 'connections cut at the drain deadline');
    const remaining = Math.max(budget - (Date.now() - started), 100);
    await keeper?.close({ timeoutMs: remaining }).catch(() => undefined);
    await Promise.allSettled([db.close(), redis.quit()]);
    logger.info({ ms: Date.now() - started, cut: drained.cut }, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(`failed to start: ${errorMessage(error)}\n`);
  }
  process.exit(1);
});
