import { errorMessage } from '@yieldrouter/schemas';
import type { Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { Books, LedgerChannel, Unlisten } from '@yieldrouter/ledger';
import type { JobName } from './jobs/jobCatalog';
import { jobOptions } from './keeperQueues';
import type { KeeperQueues } from './keeperQueues';

/**
 * Jobs a commit wakes at once (migration 0051): an outbox event committed starts the relay, the
 * deliveries it creates start delivery. Their polls go on beside (a notification sent while the
 * keeper was not listening is lost).
 */
const WAKES: ReadonlyArray<readonly [LedgerChannel, JobName]> = [
  ['ledger_outbox', 'outbox-relay'],
  ['ledger_webhook_deliveries', 'webhook-delivery'],
];

export interface WakeOnCommitParameters {
  readonly db: Books;
  readonly queues: KeeperQueues;
  /** The keeper's workers, by job: a run taken clears that job's pending wake. */
  readonly workers: ReadonlyMap<JobName, Worker>;
  /** Cadences: a job whose schedule is off (0) is not woken either. */
  readonly everyMs: Readonly<Record<JobName, number>>;
  readonly logger: Logger;
}

/**
 * Listens on each channel and queues one run of its job per wake. At most one woken run waits
 * per job: notifications while it waits are folded into it; one arriving while a run is under
 * way queues the next, so an event committed after the running one last looked is not left
 * for the poll. Returns what stops listening.
 */
export async function wakeOnCommit(parameters: WakeOnCommitParameters): Promise<Unlisten> {
  const { db, queues, workers, everyMs, logger } = parameters;
  const stops: Unlisten[] = [];
  for (const [channel, name] of WAKES) {
    const worker = workers.get(name);
    if (everyMs[name] === 0 || !worker) continue;
    let waiting = false;
    worker.on('active', () => {
      waiting = false;
    });
    const wake = () => {
      if (waiting) return;
      waiting = true;
      // Automatic, as a scheduled run is (neither job reads its trigger).
      queues[name].add(name, { trigger: 'schedule' }, jobOptions(name)).catch((error: unknown) => {
        waiting = false;
        logger.debug({ job: name, err: errorMessage(error) }, 'wake not queued');
      });
    };
    stops.push(await db.listen(channel, wake));
  }
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
