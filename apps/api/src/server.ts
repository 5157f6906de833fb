import { VENUE_CATALOG_VERSION, seedVenueCatalog } from '@yieldrouter/engine';
import { createDatabase } from '@yieldrouter/ledger';
import { createApp } from './app';
import { ConfigError, parseEnv } from './env';
import { createLogger } from './logger';
import { connectRedis } from './redis';

async function main(): Promise<void> {
  const config = parseEnv(process.env);
  const logger = createLogger(config.logLevel, { buffered: true });
  if (config.usesDevSecret) {
    logger.warn(
      'SVC_API_KEY_SECRET is not set: using the development secret (never in production)',
    );
  }
  const db = await createDatabase({
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir }),
    log: (message) => logger.info(message),
  });
  await seedVenueCatalog(db.prisma);
  logger.info({ database: db.kind, catalogVersion: VENUE_CATALOG_VERSION }, 'database ready');
  const redis = await connectRedis(config.redisUrl, logger);
  const app = createApp({ config, db, redis, logger });
  const server = app.listen(config.port, config.host, () => {
    logger.info({ port: config.port, docs: '/docs' }, 'api listening');
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'draining');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(() => {
      void Promise.allSettled([db.close(), redis.quit()]).then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`configuration error: ${error.message}\n`);
  } else {
    process.stderr.write(
      `failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  }
  process.exit(1);
});
