import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { KeeperQueues } from '@yieldrouter/jobs';
import { openKeeperQueues } from '@yieldrouter/jobs';

/** The API's way to the keeper's queues (routes, ops health, metrics, the queue dashboard). */
export interface KeeperAccess {
  /** The client as configured, reachable or not (null without Redis). */
  readonly redis: Redis | null;
  /** The Redis client when it answers; null while it is unreachable (or not configured). */
  ready(): Redis | null;
  /** The keeper's queues, opened on first use once Redis answers; null until then. */
  queues(): KeeperQueues | null;
}

export function keeperAccess(deps: {
  readonly redis: Redis | null;
  readonly prefix: string;
  readonly logger: Logger;
}): KeeperAccess {
  const { redis } = deps;
  const ready = (): Redis | null => (redis?.status === 'ready' ? redis : null);
  // BullMQ waits for a connection it is handed: opened once, on the first use with Redis up.
  let queues: KeeperQueues | undefined;
  return {
    redis,
    ready,
    queues: () => {
      const client = ready();
      if (!client) return queues ?? null;
      queues ??= openKeeperQueues(client, deps.prefix, (error) =>
        deps.logger.warn({ err: error.message }, 'keeper queue error'),
      );
      return queues;
    },
  };
}
