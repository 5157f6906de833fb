import { errorMessage } from '@yieldrouter/schemas';
import type { LedgerChannel, Unlisten } from '@yieldrouter/ledger';
import type { JobName } from './jobs/jobCatalog';
import type { KeeperJobDeps } from './jobs/keeperJobDeps';
import { runOutboxRelay, runWebhookDelivery } from './jobs/webhookJobs';

export interface WakeOnCommitParameters {
  readonly deps: KeeperJobDeps;
  /** Cadences: a job whose schedule is off (0) is not woken either. */
  readonly everyMs: Readonly<Record<JobName, number>>;
}

/** How long after a run that found work the lane looks again (0052: skipped notifications). */
export const TRAILING_LOOK_MS = 50;

/**
 * One piece of work run again and again on demand, never two at once: a wake during a run
 * starts one more after it, and a run that found work is followed by another `trailMs` later
 * (at most `maxTrails` in a row after a wake; unbounded by default).
 */
export function coalesced(work: () => Promise<boolean>, trailMs: number, maxTrails = Infinity) {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const loop = async () => {
    let trails = 0;
    do {
      again = false;
      const found = await work();
      if (found && !again && !stopped && trails < maxTrails) {
        trails += 1;
        await new Promise((resolve) => setTimeout(resolve, trailMs));
        again = true;
      } else if (again) {
        trails = 0;
      }
    } while (again && !stopped);
  };
  return {
    wake: () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      running = loop().finally(() => {
        running = undefined;
      });
    },
    stop: () => {
      stopped = true;
      return running ?? Promise.resolve();
    },
  };
}

/**
 * A committed outbox event runs the relay and then delivery in this process at once, and a
 * delivery created elsewhere (another keeper's relay) runs delivery: LISTEN/NOTIFY (migration
 * 0051), no queue hop. Both are safe beside their scheduled jobs (the relay is serialized in the
 * database, each delivery is leased to one sender), and those polls go on: a notification sent
 * while no one listened is lost, a failed run here is left to them. Notifications during a run
 * start one more run after it, and a run that found work is followed by another
 * `TRAILING_LOOK_MS` later (a commit beside a notifying one sends none, 0052), so nothing
 * committed meanwhile waits for the poll. Returns what stops listening and waits for a run
 * under way.
 */
export async function wakeOnCommit({ deps, everyMs }: WakeOnCommitParameters): Promise<Unlisten> {
  const relay = everyMs['outbox-relay'] > 0;
  const deliver = everyMs['webhook-delivery'] > 0;
  const attempt = async (name: JobName, run: () => Promise<Record<string, number>>) => {
    try {
      const counts = await run();
      return (counts['events'] ?? 0) + (counts['delivered'] ?? 0) + (counts['retrying'] ?? 0) > 0;
    } catch (error) {
      deps.logger.warn(
        { job: name, err: errorMessage(error) },
        'woken run failed: the poll goes on',
      );
      return false;
    }
  };
  const lane = coalesced(async () => {
    const relayed = relay ? await attempt('outbox-relay', () => runOutboxRelay(deps)) : false;
    const sent = deliver
      ? await attempt('webhook-delivery', () => runWebhookDelivery(deps))
      : false;
    return relayed || sent;
  }, TRAILING_LOOK_MS);
  const wakes: ReadonlyArray<readonly [LedgerChannel, boolean]> = [
    ['ledger_outbox', relay || deliver],
    ['ledger_webhook_deliveries', deliver],
  ];
  const stops: Unlisten[] = [];
  for (const [channel, wanted] of wakes) {
    if (wanted) stops.push(await deps.db.listen(channel, lane.wake));
  }
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
    await lane.stop();
  };
}
