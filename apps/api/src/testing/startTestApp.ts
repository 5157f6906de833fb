import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Express } from 'express';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { Database } from '@yieldrouter/ledger';
import { seedVenueCatalog } from '@yieldrouter/engine';
import { createApp } from '../app';
import { parseEnv } from '../env';
import { createLogger } from '../logger';

export const TEST_WALLET = '0x1111111111111111111111111111111111111111';
export const OTHER_WALLET = '0x2222222222222222222222222222222222222222';

/** Raw keys the test app loads through SVC_API_KEYS. */
export const testKeys = {
  owner: `test-owner-${randomBytes(8).toString('hex')}`,
  agent: `test-agent-${randomBytes(8).toString('hex')}`,
  keeper: `test-keeper-${randomBytes(8).toString('hex')}`,
} as const;

export interface TestApp {
  readonly app: Express;
  readonly db: Database;
  readonly redis: Redis;
  close(): Promise<void>;
}

/**
 * The real app on a fresh PostgreSQL database and the machine's Redis (own key prefix).
 * Fails, never skips, when either is unreachable.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  try {
    await redis.ping();
  } catch (error) {
    await database.drop();
    redis.disconnect();
    throw new Error(`Redis is required for the API tests: ${String(error)}`);
  }
  const config = parseEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    SVC_API_KEY_SECRET: 'test-secret-test-secret-test-secret-0001',
    SVC_API_KEYS: JSON.stringify([
      { key: testKeys.owner, role: 'owner', wallets: [TEST_WALLET] },
      { key: testKeys.agent, role: 'agent', wallets: [TEST_WALLET] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
    ...env,
  });
  await seedVenueCatalog(database.db.prisma);
  const prefix = `svc:test:${randomBytes(6).toString('hex')}:`;
  const app = createApp({
    config,
    db: database.db,
    redis,
    logger: createLogger('silent'),
    rateLimitPrefix: prefix,
  });
  return {
    app,
    db: database.db,
    redis,
    close: async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await database.drop();
    },
  };
}
