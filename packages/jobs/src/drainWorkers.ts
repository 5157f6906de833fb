import type { Worker } from 'bullmq';
import type { RunningJobs } from './runningJobs';

/**
 * How long the drain waits with no job of ours running before it stops waiting for BullMQ's
 * Worker.close(). A fetch already under way when the drain starts hands its job over within a
 * Redis round trip, well inside it.
 */
export const KEEPER_DRAIN_QUIET_MS = 1000;

export interface DrainResult {
  /** Jobs still running at the deadline, put back in their queues. */
  readonly released: number;
  /**
   * Workers whose close had not resolved after the quiet grace (no job of ours running): their
   * blocking connections, where parked, were ended.
   */
  readonly forced: readonly string[];
  /**
   * Of those, the ones whose close had still not resolved when the drain stopped waiting (it
   * goes on in the background: a blocking command left over from the reconnect waits for
   * BullMQ's own timeout, at most about 11 s).
   */
  readonly unfinished: readonly string[];
}

/**
 * Ends a closing worker's blocking connection when BullMQ's close left it parked. Worker.close()
 * disconnects that connection and waits for its 'end'; when the close finds it between two
 * reconnect attempts (Redis just restarted, or is down), ioredis' disconnect() cancels the next
 * attempt and emits nothing: the connection stays 'reconnecting' for good, and neither the
 * close nor the worker's fetch loop ever ends. (`worker.close(true)` cannot help: a second close
 * returns the first one's promise.) A connect() undone at once, before its socket is even
 * opened, ends it: ioredis emits 'end' and rejects its pending blocking command, so the fetch
 * loop stops and the close goes on (lock renewal stopped, connections quit).
 */
async function endParkedConnection(worker: Worker): Promise<void> {
  const client = await worker.getBackend().blockingClient?.catch(() => undefined);
  if (client?.status !== 'reconnecting') return;
  client.connect().catch(() => undefined);
  client.disconnect();
}

/**
 * Closes the workers: they take no more jobs, running ones finish. Ends when every close has
 * resolved; at `timeoutMs` (when given), with the jobs still running released; or once no job
 * of ours has run for KEEPER_DRAIN_QUIET_MS while some close still hangs (BullMQ, after Redis
 * restarted: see `endParkedConnection`): those workers' blocking connections are ended, and
 * their close gets as long again (within the deadline) before the drain stops waiting for it.
 *
 * A job BullMQ hands over after the closes started (its fetch was under way) runs to its end
 * within the drain, which waits for it as for any running job (up to the deadline, past which
 * it is released). Once the drain is over, a job handed over is not run: it goes back to its
 * queue, or, if Redis does not take it, to BullMQ's stalled-job recovery (`jobs.stop()`).
 */
export async function drainWorkers(
  workers: readonly Worker[],
  jobs: RunningJobs,
  timeoutMs?: number,
): Promise<DrainResult> {
  const closing = new Set(workers);
  const closed = Promise.all(
    workers.map((worker) => worker.close().finally(() => closing.delete(worker))),
  ).then(() => 'closed' as const);
  const timers: NodeJS.Timeout[] = [];
  const after = <T>(ms: number, value: T) =>
    new Promise<T>((resolve) => timers.push(setTimeout(resolve, ms, value)));
  const deadline = timeoutMs === undefined ? [] : [after(timeoutMs, 'deadline' as const)];
  const quiet = jobs.quietFor(KEEPER_DRAIN_QUIET_MS);
  try {
    const outcome = await Promise.race([
      closed,
      quiet.quiet.then(() => 'quiet' as const),
      ...deadline,
    ]);
    jobs.stop();
    if (outcome === 'closed') return { released: 0, forced: [], unfinished: [] };
    // The closes go on waiting for those runs; the caller moves on meanwhile.
    if (outcome === 'deadline')
      return { released: await jobs.release(), forced: [], unfinished: [] };
    const forced = [...closing];
    await Promise.all(forced.map(endParkedConnection));
    await Promise.race([closed, after(KEEPER_DRAIN_QUIET_MS, 'late' as const), ...deadline]);
    return {
      released: 0,
      forced: forced.map((worker) => worker.name),
      unfinished: [...closing].map((worker) => worker.name),
    };
  } finally {
    quiet.cancel();
    for (const timer of timers) clearTimeout(timer);
  }
}
