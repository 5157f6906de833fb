import { errorMessage } from '@yieldrouter/schemas';
import { hostname } from 'node:os';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from '@yieldrouter/ledger';
import type { ApyReader, ChainAdapters, ServiceConfig, WebhookSender } from '@yieldrouter/engine';
import {
  createChainAdapters,
  createDefiLlamaReader,
  createWebhookSender,
} from '@yieldrouter/engine';
import type { KeeperHeartbeat } from '@yieldrouter/schemas';
import { connectKeeperRedis } from './connectKeeperRedis';
import { JOB_NAMES, jobDefinition } from './jobs/jobCatalog';
import type { KeeperJobDeps } from './jobs/keeperJobDeps';
import { closeKeeperQueues, jobOptions, openKeeperQueues } from './keeperQueues';
import type { KeeperQueues } from './keeperQueues';
import { jobProcessor } from './runJob';
import type { KeeperSettings } from './settings';
import { clearHeartbeat, writeHeartbeat } from './state/writeKeeperState';

/** What the keeper needs from configuration (the keeper process's, or the API's). */
export type KeeperRuntimeConfig = Pick<
  ServiceConfig,
  'redisUrl' | 'chains' | 'onChainIds' | 'switches' | 'venues' | 'apy' | 'webhooks'
> & { readonly keeper: KeeperSettings };

export interface StartKeeperParameters {
  readonly db: Database;
  readonly config: KeeperRuntimeConfig;
  readonly logger: Logger;
  /** Its own process, or inside the API (embedded database). Reported in the heartbeat. */
  readonly mode?: KeeperHeartbeat['mode'];
  /** Chain adapters; built from `config` when not given. */
  readonly adapters?: ChainAdapters;
  /** The APY source; DefiLlama-compatible from `config` when not given. */
  readonly apyReader?: ApyReader;
  /** Overrides of the webhook sender (tests: a resolver, a clock). */
  readonly webhookSender?: Partial<WebhookSender>;
  readonly now?: () => Date;
}

export interface RunningKeeper {
  readonly queues: KeeperQueues;
  /** The keeper's Redis connection (BullMQ and state). */
  readonly redis: Redis;
  /** Stops taking jobs, waits for running ones to finish, then closes queues and Redis. */
  close(): Promise<void>;
}

/**
 * Starts the keeper: one queue and one worker per catalog job, job schedulers at the configured
 * cadences (upserted, so restarts and several keepers converge on one schedule; cadence 0
 * removes a schedule), and a heartbeat in Redis. The database stays the caller's.
 */
export async function startKeeper(parameters: StartKeeperParameters): Promise<RunningKeeper> {
  const { config, logger } = parameters;
  const settings = config.keeper;
  const now = parameters.now ?? (() => new Date());
  const redis = await connectKeeperRedis(config.redisUrl);
  const deps: KeeperJobDeps = {
    db: parameters.db.prisma,
    sql: parameters.db.sql,
    settlements: parameters.db.settlements,
    adapters:
      parameters.adapters ??
      createChainAdapters({
        chains: config.chains,
        ids: config.onChainIds,
        switches: config.switches,
      }),
    venues: config.venues,
    apyReader:
      parameters.apyReader ??
      createDefiLlamaReader({ baseUrl: config.apy.baseUrl, timeoutMs: config.apy.timeoutMs }),
    settlement: settings.settlement,
    reconciliation: settings.reconciliation,
    webhooks: {
      ...settings.webhooks,
      sender: { ...createWebhookSender(config.webhooks), ...parameters.webhookSender },
    },
    logger,
    now,
  };
  const reportError = (error: Error) => logger.warn({ err: error.message }, 'keeper queue error');
  const queues = openKeeperQueues(redis, settings.prefix, reportError);
  try {
    for (const name of JOB_NAMES) {
      const every = settings.everyMs[name];
      if (every > 0) {
        await queues[name].upsertJobScheduler(
          name,
          { every },
          { name, data: { trigger: 'schedule' }, opts: jobOptions(name) },
        );
      } else {
        await queues[name].removeJobScheduler(name);
      }
    }
  } catch (error) {
    await closeKeeperQueues(queues);
    redis.disconnect();
    throw error;
  }

  const workers = JOB_NAMES.map((name) => {
    const worker = new Worker(name, jobProcessor(name, deps, { redis, prefix: settings.prefix }), {
      connection: redis,
      prefix: settings.prefix,
      concurrency: jobDefinition(name).concurrency,
      lockDuration: settings.lockMs,
      stalledInterval: settings.lockMs,
    });
    worker.on('error', reportError);
    return worker;
  });

  const startedAt = now().toISOString();
  const beat = () =>
    writeHeartbeat(redis, settings.prefix, {
      at: now().toISOString(),
      startedAt,
      pid: process.pid,
      hostname: hostname(),
      mode: parameters.mode ?? 'process',
      staleAfterMs: settings.heartbeatMs * 3,
      jobs: JOB_NAMES.map((job) => ({ job, everyMs: settings.everyMs[job] })),
    }).catch((error: unknown) => logger.warn({ err: errorMessage(error) }, 'no heartbeat'));
  await beat();
  const heartbeat = setInterval(() => void beat(), settings.heartbeatMs);
  heartbeat.unref();
  logger.info({ prefix: settings.prefix, jobs: settings.everyMs }, 'keeper started');

  let closing: Promise<void> | undefined;
  return {
    queues,
    redis,
    close: () => {
      closing ??= (async () => {
        clearInterval(heartbeat);
        await Promise.all(workers.map((worker) => worker.close()));
        await clearHeartbeat(redis, settings.prefix).catch(() => undefined);
        await closeKeeperQueues(queues);
        await redis.quit().catch(() => redis.disconnect());
        logger.info('keeper stopped');
      })();
      return closing;
    },
  };
}
