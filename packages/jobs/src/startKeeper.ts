import { errorMessage } from '@yieldrouter/schemas';
import { hostname } from 'node:os';
import { Worker } from 'bullmq';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Books } from '@yieldrouter/ledger';
import type {
  ApyReader,
  BridgeRail,
  ChainAdapters,
  ServiceConfig,
  WebhookSender,
} from '@yieldrouter/engine';
import {
  createCctpRail,
  createChainAdapters,
  createDefiLlamaReader,
  createWebhookSender,
} from '@yieldrouter/engine';
import type { KeeperHeartbeat } from '@yieldrouter/schemas';
import type { KeeperObserver } from '@yieldrouter/metrics';
import { connectKeeperRedis } from './connectKeeperRedis';
import { drainWorkers } from './drainWorkers';
import { JOB_NAMES, jobDefinition } from './jobs/jobCatalog';
import type { KeeperJobDeps } from './jobs/keeperJobDeps';
import { closeKeeperQueues, openKeeperQueues } from './keeperQueues';
import type { KeeperQueues } from './keeperQueues';
import { keepJobSchedules } from './keepJobSchedules';
import { jobProcessor } from './runJob';
import { trackRunningJobs } from './runningJobs';
import type { KeeperSettings } from './settings';
import { clearHeartbeat, writeHeartbeat } from './state/writeKeeperState';
import { wakeOnCommit } from './wakeOnCommit';
import { wakeOnReceipts } from './wakeOnReceipts';
import type { ReceiptWakes } from './wakeOnReceipts';

/** What the keeper needs from configuration (the keeper process's, or the API's). */
export type KeeperRuntimeConfig = Pick<
  ServiceConfig,
  'redisUrl' | 'chains' | 'onChainIds' | 'switches' | 'venues' | 'apy' | 'webhooks'
> & {
  readonly keeper: KeeperSettings;
  /** Bridge rails' settings (the burn legs the watch settles); none: no bridge legs settle. */
  readonly bridges?: ServiceConfig['bridges'];
  /** Each chain's treasury: reconciliation compares what the books say skims paid it. */
  readonly treasuries?: ServiceConfig['treasuries'];
};

export interface StartKeeperParameters {
  readonly db: Books;
  readonly config: KeeperRuntimeConfig;
  readonly logger: Logger;
  /** Its own process, or inside the API (embedded database). Reported in the heartbeat. */
  readonly mode?: KeeperHeartbeat['mode'];
  /** Chain adapters; built from `config` when not given. */
  readonly adapters?: ChainAdapters;
  /**
   * The bridge rail; built from `config` when not given. The API's in-process keeper shares the
   * API's, so the process keeps one attestation-service budget and fee cache.
   */
  readonly bridgeRail?: BridgeRail;
  /** The APY source; DefiLlama-compatible from `config` when not given. */
  readonly apyReader?: ApyReader;
  /** Overrides of the webhook sender (tests: a resolver, a clock). */
  readonly webhookSender?: Partial<WebhookSender>;
  readonly now?: () => Date;
  /** Where job runs, lags and settlements are reported (the process's metrics). */
  readonly observer?: KeeperObserver;
}

export interface CloseKeeperOptions {
  /**
   * How long running jobs have to finish; past it they are released (moved back to their
   * queue, for another keeper or the next start to run again: jobs are idempotent). Default:
   * wait for them. With none running, the drain ends without waiting for it.
   */
  readonly timeoutMs?: number;
}

export interface CloseKeeperResult {
  /** Jobs still running at the deadline, put back in their queues. */
  readonly released: number;
}

export interface RunningKeeper {
  readonly queues: KeeperQueues;
  /** The keeper's Redis connection (BullMQ and state). */
  readonly redis: Redis;
  /**
   * Stops taking jobs, lets running ones finish (or releases them at the deadline), withdraws
   * the heartbeat, then closes queues and Redis. Once none runs, the drain takes two seconds at
   * most, even when a BullMQ worker's close hangs (see `drainWorkers`).
   */
  close(options?: CloseKeeperOptions): Promise<CloseKeeperResult>;
}

/**
 * Starts the keeper: one queue and one worker per catalog job, job schedulers at the configured
 * cadences (upserted, so restarts and several keepers converge on one schedule; cadence 0
 * removes a schedule), and a heartbeat in Redis. The schedulers are checked again each time
 * Redis is (re)connected and at every heartbeat, and re-created when missing (Redis restarted
 * empty). The database stays the caller's.
 */
export async function startKeeper(parameters: StartKeeperParameters): Promise<RunningKeeper> {
  const { config, logger } = parameters;
  const settings = config.keeper;
  const now = parameters.now ?? (() => new Date());
  const redis = await connectKeeperRedis(config.redisUrl);
  const deps: KeeperJobDeps = {
    db: parameters.db,
    adapters:
      parameters.adapters ??
      createChainAdapters({
        chains: config.chains,
        ids: config.onChainIds,
        switches: config.switches,
      }),
    ...(config.bridges
      ? {
          bridgeRail:
            parameters.bridgeRail ??
            createCctpRail({ bridges: config.bridges, chains: config.chains, logger }),
          bridges: config.bridges,
        }
      : {}),
    venues: config.venues,
    ...(config.treasuries ? { treasuries: config.treasuries } : {}),
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
    ...(parameters.observer ? { observer: parameters.observer } : {}),
  };
  // Every queue and worker reports a lost Redis on each reconnect attempt: one line per message
  // and minute is enough.
  const reported = new Map<string, number>();
  const reportError = (error: Error) => {
    const at = Date.now();
    if (at - (reported.get(error.message) ?? 0) < 60_000) return;
    reported.set(error.message, at);
    logger.warn({ err: error.message }, 'keeper queue error');
  };
  const queues = openKeeperQueues(redis, settings.prefix, reportError);
  const schedules = keepJobSchedules(queues, settings.everyMs, logger);
  try {
    await schedules.apply();
  } catch (error) {
    await closeKeeperQueues(queues);
    redis.disconnect();
    throw error;
  }
  const onReady = () => {
    if (reported.size > 0) logger.info('Redis is reachable again');
    reported.clear();
    void schedules.check('redis ready');
  };
  redis.on('ready', onReady);

  // Jobs under way in this process, with their lock tokens (to release them at a deadline).
  const running = trackRunningJobs();
  // Set below, once listening: a scheduled watch's counts can ask it to follow a receipt.
  const receipts: { wakes?: ReceiptWakes } = {};
  const workers = JOB_NAMES.map((name) => {
    const runJob = jobProcessor(name, deps, { redis, prefix: settings.prefix });
    const worker = new Worker(
      name,
      (job: Job, token?: string) =>
        running.run(`${name}:${job.id ?? ''}`, job, token, async () => {
          const counts = await runJob(job);
          receipts.wakes?.polled(name, counts);
          return counts;
        }),
      {
        connection: redis,
        prefix: settings.prefix,
        concurrency: jobDefinition(name).concurrency,
        lockDuration: settings.lockMs,
        stalledInterval: settings.lockMs,
      },
    );
    worker.on('error', reportError);
    return worker;
  });

  // A commit to the outbox runs the relay and delivery at once; their polls stay (0051).
  const unlistenCommits = await wakeOnCommit({ deps, everyMs: settings.everyMs });
  // A leg submitted or a bridge burn confirmed runs its watch at once (0064); polls stay.
  receipts.wakes = await wakeOnReceipts({ deps, everyMs: settings.everyMs });
  const unlisten = async () => {
    await Promise.all([unlistenCommits(), receipts.wakes?.stop()]);
  };

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
  const heartbeat = setInterval(() => {
    void beat();
    void schedules.check('timer');
  }, settings.heartbeatMs);
  heartbeat.unref();
  logger.info({ prefix: settings.prefix, jobs: settings.everyMs }, 'keeper started');

  let closing: Promise<CloseKeeperResult> | undefined;
  return {
    queues,
    redis,
    close: (options = {}) => {
      closing ??= (async () => {
        clearInterval(heartbeat);
        redis.off('ready', onReady);
        await unlisten();
        const { released, forced, unfinished } = await drainWorkers(
          workers,
          running,
          options.timeoutMs,
        );
        if (released > 0) {
          logger.warn({ released }, 'jobs still running at the drain deadline: released');
        }
        if (forced.length > 0) {
          logger.warn(
            { workers: forced, unfinished },
            'workers still closing with no job running: parked blocking connections ended',
          );
        }
        await clearHeartbeat(redis, settings.prefix).catch(() => undefined);
        await closeKeeperQueues(queues).catch(() => undefined);
        await redis.quit().catch(() => redis.disconnect());
        logger.info({ released }, 'keeper stopped');
        return { released };
      })();
      return closing;
    },
  };
}
