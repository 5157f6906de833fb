// Test support: a fresh PostgreSQL database and a unique Redis prefix per test file. Fails,
// never skips, when either is unreachable.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { createWebhookSender } from '@yieldrouter/engine';
import type { ApyReader } from '@yieldrouter/engine';
import { JOB_NAMES } from '../jobs/jobCatalog';
import { startKeeper } from '../startKeeper';
import { readKeeperSurvival } from '../state/readKeeperSurvival';
import type { RunningKeeper } from '../startKeeper';
import type { KeeperJobDeps } from '../jobs/keeperJobDeps';
import { parseKeeperEnv } from '../env';
import type { KeeperConfig } from '../env';

export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface KeeperTestBed {
  readonly database: TestDatabase;
  /** A plain client for assertions. */
  readonly redis: Redis;
  readonly prefix: string;
  /** The environment a keeper of this bed runs with (`extra` on top). */
  env(extra?: Record<string, string>): Record<string, string>;
  config(extra?: Record<string, string>): KeeperConfig;
  close(): Promise<void>;
}

export const silentLogger = pino({ level: 'silent' });

/** Answers every venue as unavailable: jobs run without any network. */
export const offlineApyReader: ApyReader = {
  source: 'test',
  read: async (queries) =>
    queries.map((query) => ({
      venueId: query.venueId,
      status: 'unavailable',
      source: 'test',
      reason: 'source_not_configured',
      detail: 'offline test reader',
    })),
};

export async function startKeeperTestBed(): Promise<KeeperTestBed> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  try {
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Redis is required for the keeper tests (${REDIS_URL}): ${String(error)}`);
  }
  const database = await createTestDatabase();
  const prefix = `svc:test:${randomBytes(6).toString('hex')}`;
  const env = (extra: Record<string, string> = {}) => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL,
    SVC_KEEPER_PREFIX: prefix,
    SVC_KEEPER_HEALTH_PORT: '0',
    SVC_KEEPER_HEALTH_HOST: '127.0.0.1',
    ...extra,
  });
  return {
    database,
    redis,
    prefix,
    env,
    config: (extra) => parseKeeperEnv(env(extra)),
    close: async () => {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      await database.drop();
    },
  };
}

/** Polls `probe` until it returns a value other than undefined (or fails after `timeoutMs`). */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Webhook delivery settings for job tests: a test secret, loopback targets allowed. */
export const testWebhookDeps: KeeperJobDeps['webhooks'] = {
  sender: createWebhookSender({
    keySecret: 'keeper-test-webhook-secret-0123456789abcdef',
    allowInsecureUrls: true,
    allowPrivateUrls: true,
    timeoutMs: 2000,
  }),
  batchSize: 500,
  perSubscription: 100,
  runBudgetMs: 5000,
};

const HOUR_MS = 3_600_000;

/**
 * Job deps for calling a processor directly (no queue): the database and chain adapters of the
 * test, offline APY, silent logs, an hour's settlement windows; override what the test is about.
 */
export function testJobDeps(
  database: TestDatabase,
  parts: Pick<KeeperJobDeps, 'adapters' | 'venues'> & Partial<KeeperJobDeps>,
): KeeperJobDeps {
  return {
    db: database.db,
    apyReader: offlineApyReader,
    settlement: {
      pageSize: 100,
      concurrency: 4,
      giveUpAfterMs: HOUR_MS,
      releasedWatchMs: 24 * HOUR_MS,
      unsignedTtlMs: 24 * HOUR_MS,
    },
    reconciliation: { thresholdMicros: 10_000n },
    webhooks: testWebhookDeps,
    logger: silentLogger,
    now: () => new Date(),
    ...parts,
  };
}

/**
 * Registers a test file's hooks around one bed: the bed before all, keepers started with
 * `start` (heartbeat every 200 ms, `defaults` then `env` on top, offline APY unless told)
 * closed after each test, and the bed's keys cleared, the bed closed after all.
 */
export function useKeeperTestBed(defaults: Record<string, string> = {}) {
  let bed: KeeperTestBed | undefined;
  const running: RunningKeeper[] = [];
  const current = () => {
    if (!bed) throw new Error('the keeper test bed is not started yet');
    return bed;
  };
  beforeAll(async () => {
    bed = await startKeeperTestBed();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((keeper) => keeper.close({ timeoutMs: 5000 })));
    const keys = await current().redis.keys(`${current().prefix}:*`);
    if (keys.length > 0) await current().redis.del(...keys);
  });
  afterAll(() => bed?.close());
  return {
    get bed() {
      return current();
    },
    start: async (env: Record<string, string> = {}, apyReader: ApyReader = offlineApyReader) => {
      const keeper = await startKeeper({
        db: current().database.db,
        config: current().config({ SVC_KEEPER_HEARTBEAT_MS: '200', ...defaults, ...env }),
        logger: silentLogger,
        apyReader,
      });
      running.push(keeper);
      return keeper;
    },
    /** The keeper state under the bed's prefix, now. */
    survival: () =>
      readKeeperSurvival({
        redis: current().redis,
        prefix: current().prefix,
        jobs: JOB_NAMES,
        now: new Date(),
      }),
    /** Takes a keeper out of the after-each close (a test that closes it itself). */
    forget: (keeper: RunningKeeper) => {
      const index = running.indexOf(keeper);
      if (index >= 0) running.splice(index, 1);
    },
  };
}
