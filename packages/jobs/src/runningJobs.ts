import { WaitingError } from 'bullmq';
import type { Job } from 'bullmq';

export interface QuietWatch {
  /** Resolves once no job of ours has run for the whole grace. */
  readonly quiet: Promise<void>;
  /** Stops watching (clears the timer). */
  cancel(): void;
}

/** The jobs this process runs for its BullMQ workers, tracked with their lock tokens. */
export interface RunningJobs {
  /**
   * The processor's body: runs `run` for the job, tracked from its start to its end. After
   * `stop()`, the job is not run (see there).
   */
  run<T>(key: string, job: Job, token: string | undefined, run: () => Promise<T>): Promise<T>;
  /**
   * Runs no job handed over from now on (the drain is over): each goes straight back to its
   * queue (`moveToWait` with its token, then BullMQ's `WaitingError` so the worker leaves it
   * there). If Redis does not take it back, it stays active under our lock, which expires
   * (`SVC_KEEPER_LOCK_MS`): BullMQ's stalled-job check puts it back in its queue.
   */
  stop(): void;
  /**
   * Puts the jobs still running back in their queues (for another keeper to run at once: jobs
   * are idempotent) and stops tracking them. Returns how many.
   */
  release(): Promise<number>;
  /**
   * Watches for `graceMs` without any job of ours running: the timer starts now when none
   * runs, stops when one starts, and starts over when the last one ends.
   */
  quietFor(graceMs: number): QuietWatch;
}

export function trackRunningJobs(): RunningJobs {
  const running = new Map<string, { readonly job: Job; readonly token: string }>();
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watcher of watchers) watcher();
  };
  let stopped = false;
  return {
    run: async (key, job, token, run) => {
      if (stopped) {
        if (token) await job.moveToWait(token).catch(() => undefined);
        throw new WaitingError();
      }
      if (token) {
        running.set(key, { job, token });
        changed();
      }
      try {
        return await run();
      } finally {
        // A released job is no longer ours: its end changes nothing.
        if (running.delete(key)) changed();
      }
    },
    stop: () => {
      stopped = true;
    },
    release: async () => {
      const jobs = [...running.values()];
      running.clear();
      changed();
      await Promise.all(jobs.map(({ job, token }) => job.moveToWait(token).catch(() => undefined)));
      return jobs.length;
    },
    quietFor: (graceMs) => {
      let timer: NodeJS.Timeout | undefined;
      let resolveQuiet: () => void = () => undefined;
      const quiet = new Promise<void>((resolve) => {
        resolveQuiet = resolve;
      });
      const watch = () => {
        clearTimeout(timer);
        timer = running.size === 0 ? setTimeout(resolveQuiet, graceMs) : undefined;
      };
      watchers.add(watch);
      watch();
      return {
        quiet,
        cancel: () => {
          clearTimeout(timer);
          watchers.delete(watch);
        },
      };
    },
  };
}
