// Our API app, production settings, listening on an ephemeral port for the benchmark.
import { createApp } from '@yieldrouter/api/app';
import { parseEnv } from '@yieldrouter/api/env';
import { createLogger } from '@yieldrouter/api/logger';
import { connectRedis } from '@yieldrouter/api/redis';
import { seedVenueCatalog } from '@yieldrouter/engine';
import { createDatabase } from '@yieldrouter/ledger';

async function main() {
  const config = parseEnv(process.env);
  const logger = createLogger(config.logLevel, { buffered: true });
  const db = await createDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
  );
  await seedVenueCatalog(db);
  const redis = await connectRedis(config.redisUrl, logger);
  const app = createApp({ config, db, redis, logger });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.stderr.write(`LISTENING ${address.port}\n`);
  });
}

void main();

// Exit cleanly so `node --cpu-prof` can write its profile.
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
