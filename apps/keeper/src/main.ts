import { errorMessage } from '@yieldrouter/schemas';
import { ConfigError, createServiceLogger, createServices } from '@yieldrouter/engine';
import { createKeeperMetrics, createMetricsRegistry } from '@yieldrouter/metrics';
import {
  JOB_NAMES,
  parseKeeperEnv,
  readBacklog,
  readOpsHealth,
  startHealthServer,
  startKeeper,
} from '@yieldrouter/jobs';

// The keeper as its own process (PostgreSQL): workers, schedulers, heartbeat, /health and
// /metrics.
async function main(): Promise<void> {
  const config = parseKeeperEnv(process.env);
  const logger = createServiceLogger('keeper', config.logLevel, { buffered: true });
  const services = await createServices({ config, logger });
  const db = services.books;
  // The process's metrics: job runs and lags, settlements, and (at each scrape) ops health.
  const registry = createMetricsRegistry();
  const observer = createKeeperMetrics(registry);
  const keeper = await startKeeper({
    db,
    config,
    logger,
    observer,
    adapters: services.adapters,
    apyReader: services.apyReader,
    bridgeRail: services.bridgeRail,
  }).catch(async (error) => {
    await db.close();
    throw error;
  });
  const health = await startHealthServer(
    () =>
      readOpsHealth({
        db: db,
        redis: keeper.redis,
        queues: keeper.queues,
        jobs: JOB_NAMES,
        prefix: config.keeper.prefix,
        now: () => new Date(),
      }),
    { ...config.keeper.health, registry, backlog: () => readBacklog(db, new Date()) },
  );
  logger.info({ port: health.port }, 'keeper health at /health and /metrics');

  // SIGTERM / SIGINT: stop taking jobs, let running ones finish within SVC_DRAIN_TIMEOUT_MS
  // (past it they go back to their queues for another keeper: jobs are idempotent), withdraw
  // the heartbeat, close the health endpoint, Redis and the database, exit 0.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logger.info({ signal, timeoutMs: config.drainTimeoutMs }, 'keeper draining');
    const backstop = setTimeout(() => {
      logger.error('drain did not finish in time: exiting');
      process.exit(1);
    }, config.drainTimeoutMs + 5000);
    backstop.unref();
    // The last second is for closing the pools.
    const { released } = await keeper.close({
      timeoutMs: Math.max(config.drainTimeoutMs - 1000, 500),
    });
    await Promise.allSettled([health.close(), db.close()]);
    logger.info({ ms: Date.now() - started, released }, 'stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  const message = errorMessage(error);
  process.stderr.write(
    error instanceof ConfigError
      ? `configuration error: ${message}\n`
      : `keeper failed to start: ${message}\n`,
  );
  process.exit(1);
});
