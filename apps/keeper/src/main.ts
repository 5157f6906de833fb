import { errorMessage } from '@yieldrouter/schemas';
import { ConfigError, createServiceLogger, seedVenueCatalog } from '@yieldrouter/engine';
import { createDatabase } from '@yieldrouter/ledger';
import { parseKeeperEnv } from './env';
import { startHealthServer } from './healthServer';
import { JOB_NAMES } from './jobs/jobCatalog';
import { startKeeper } from './startKeeper';
import { readOpsHealth } from './state/readOpsHealth';

// The keeper as its own process (PostgreSQL): workers, schedulers, heartbeat, /health and
// /metrics. SIGTERM or SIGINT stops taking jobs, lets running ones finish, and exits 0.
async function main(): Promise<void> {
  const config = parseKeeperEnv(process.env);
  const logger = createServiceLogger('keeper', config.logLevel, { buffered: true });
  const db = await createDatabase({
    databaseUrl: config.databaseUrl,
    log: (message) => logger.info(message),
  });
  await seedVenueCatalog(db.prisma);
  const keeper = await startKeeper({ db, config, logger }).catch(async (error) => {
    await db.close();
    throw error;
  });
  const health = await startHealthServer(
    () =>
      readOpsHealth({
        db: db.prisma,
        redis: keeper.redis,
        queues: keeper.queues,
        jobs: JOB_NAMES,
        prefix: config.keeper.prefix,
        now: () => new Date(),
      }),
    config.keeper.health,
  );
  logger.info({ port: health.port }, 'keeper health at /health and /metrics');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'keeper draining');
    // A job that does not finish in time is left to BullMQ: its lock expires and another
    // keeper (or this one, restarted) runs it again; jobs are idempotent.
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    void Promise.allSettled([health.close(), keeper.close()])
      .then(() => db.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
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
