import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Express } from 'express';
import { createTestDatabase, createTestPgliteDatabase } from '@yieldrouter/ledger/testing';
import type { Books } from '@yieldrouter/ledger';
import { seedVenueCatalog } from '@yieldrouter/engine';
import type { AppDeps } from '../app';
import { createApp } from '../app';
import { parseEnv } from '../env';
import type { ApiConfig } from '../env';
import { createLogger } from '../logger';

export const TEST_WALLET = '0x1111111111111111111111111111111111111111';
export const OTHER_WALLET = '0x2222222222222222222222222222222222222222';

/** Well-formed addresses for each chain, for tests where no RPC ever answers for them. */
export const SAMPLE_ADDRESSES = {
  sui: '0x5f2b1d3c4e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e',
  solana: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  base: '0x52908400098527886E0F7030069857D2E4169EE7',
  arbitrum: '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
} as const;

/** Well-formed sample values for the manifest's path parameters. */
export const SAMPLE_PARAMS: Readonly<Record<string, string>> = {
  address: TEST_WALLET,
  id: 'sample-id',
  planId: 'plan_sample',
  legIndex: '0',
  character_id: 'character-1',
  decisionId: 'apd_1',
};

/** Raw keys the test app loads through SVC_API_KEYS. */
export const testKeys = {
  owner: `test-owner-${randomBytes(8).toString('hex')}`,
  agent: `test-agent-${randomBytes(8).toString('hex')}`,
  keeper: `test-keeper-${randomBytes(8).toString('hex')}`,
} as const;

/** SVC_API_KEYS of the test keys of `roles` (the owner's by default), each for `wallets`. */
export const scopedTestKeys = (
  wallets: readonly string[],
  roles: readonly ('owner' | 'agent')[] = ['owner'],
): string => JSON.stringify(roles.map((role) => ({ key: testKeys[role], role, wallets })));

export interface TestApp {
  readonly app: Express;
  readonly config: ApiConfig;
  readonly db: Books;
  readonly redis: Redis;
  /** The Redis key prefix of this app's rate-limit counters (another instance shares it). */
  readonly rateLimitPrefix: string;
  close(): Promise<void>;
}

/**
 * Which database the API suites run on: PostgreSQL, or with `SVC_TEST_DATABASE=pglite` (the
 * `test:pglite` jest project) the embedded PGlite the README's first command serves from.
 */
export const testDatabaseKind = (): 'postgres' | 'pglite' =>
  process.env['SVC_TEST_DATABASE'] === 'pglite' ? 'pglite' : 'postgres';

/**
 * The real app on a fresh database (PostgreSQL, or PGlite: `testDatabaseKind`) and the
 * machine's Redis (own key prefix). Fails, never skips, when either is unreachable.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  deps: Partial<
    Pick<AppDeps, 'logger' | 'apyReader' | 'adapters' | 'registry' | 'withheldHandlers'>
  > & {
    /** The app's database, given the test database's URL (default: the test database). */
    readonly openDatabase?: (url: string) => Promise<Books>;
  } = {},
): Promise<TestApp> {
  const database =
    testDatabaseKind() === 'pglite' ? await createTestPgliteDatabase() : await createTestDatabase();
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
  // Rate-limit counters and keeper queues/state under one prefix of this app's own.
  const prefix = `svc:test:${randomBytes(6).toString('hex')}:`;
  const config = parseEnv({
    SVC_KEEPER_PREFIX: `${prefix}keeper`,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    SVC_API_KEY_SECRET: 'test-secret-test-secret-test-secret-0001',
    SVC_API_KEYS: JSON.stringify([
      {
        key: testKeys.owner,
        role: 'owner',
        wallets: [TEST_WALLET],
        characters: { [SAMPLE_PARAMS['character_id'] as string]: TEST_WALLET },
      },
      {
        key: testKeys.agent,
        role: 'agent',
        wallets: [TEST_WALLET],
        characters: { [SAMPLE_PARAMS['character_id'] as string]: TEST_WALLET },
      },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
    ...env,
  });
  await seedVenueCatalog(database.db);
  const { openDatabase, ...appDeps } = deps;
  const db = openDatabase ? await openDatabase(database.url) : database.db;
  const app = createApp({
    config,
    db,
    redis,
    logger: createLogger('silent'),
    rateLimitPrefix: prefix,
    ...appDeps,
  });
  return {
    app,
    config,
    db,
    redis,
    rateLimitPrefix: prefix,
    close: async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      if (db !== database.db) await db.close();
      await database.drop();
    },
  };
}
