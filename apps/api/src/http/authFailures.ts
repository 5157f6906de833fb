import type { Redis } from 'ioredis';

export interface AuthFailuresOptions {
  readonly redis: Redis | null;
  readonly prefix: string;
  /** Failed authentications an identity may make before it is made to wait. */
  readonly freeFailures: number;
  /** The longest wait; the count of failures is forgotten this long after the last one. */
  readonly maxBackoffSeconds: number;
}

interface LocalState {
  failures: number;
  blockedUntil: number;
  forgetAt: number;
}

/**
 * Failed authentication (an unknown or revoked X-API-Key) per identity (`ip:<address>`,
 * `prefix:<first 12 characters of the key>`): the first `freeFailures` are answered 401, then
 * every further failure makes the identity wait 1, 2, 4, … seconds (capped), during which it is
 * answered 429 with Retry-After. Shared across instances through Redis; per process without it.
 */
export class AuthFailures {
  private readonly local = new Map<string, LocalState>();

  constructor(private readonly options: AuthFailuresOptions) {}

  /** Seconds `identity` must still wait, or 0. */
  async waitSeconds(identity: string): Promise<number> {
    const redis = this.ready();
    if (redis) {
      try {
        const ms = await redis.pttl(`${this.options.prefix}authblock:${identity}`);
        return ms > 0 ? Math.ceil(ms / 1000) : 0;
      } catch {
        // Redis failing: the per-process state below still holds.
      }
    }
    const state = this.local.get(identity);
    const ms = state ? state.blockedUntil - Date.now() : 0;
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  /** Counts a failure of each identity; returns the longest wait it now imposes (0 if none). */
  async fail(identities: readonly string[]): Promise<number> {
    const waits = await Promise.all(identities.map((identity) => this.failOne(identity)));
    return Math.max(0, ...waits);
  }

  private backoffSeconds(failures: number): number {
    const over = failures - this.options.freeFailures;
    if (over <= 0) return 0;
    return Math.min(this.options.maxBackoffSeconds, 2 ** Math.min(over - 1, 30));
  }

  private async failOne(identity: string): Promise<number> {
    const forgetMs = this.options.maxBackoffSeconds * 1000;
    const redis = this.ready();
    if (redis) {
      try {
        const key = `${this.options.prefix}authfail:${identity}`;
        const results = await redis.multi().incr(key).pexpire(key, forgetMs).exec();
        const failures = results?.[0]?.[1];
        if (typeof failures === 'number') {
          const wait = this.backoffSeconds(failures);
          if (wait > 0) {
            await redis.set(`${this.options.prefix}authblock:${identity}`, '1', 'PX', wait * 1000);
          }
          return wait;
        }
      } catch {
        // Counted per process below.
      }
    }
    return this.failLocal(identity, forgetMs);
  }

  private failLocal(identity: string, forgetMs: number): number {
    const now = Date.now();
    let state = this.local.get(identity);
    if (!state || state.forgetAt <= now) {
      if (this.local.size > 100_000) this.local.clear();
      state = { failures: 0, blockedUntil: 0, forgetAt: 0 };
      this.local.set(identity, state);
    }
    state.failures += 1;
    state.forgetAt = now + forgetMs;
    const wait = this.backoffSeconds(state.failures);
    if (wait > 0) state.blockedUntil = now + wait * 1000;
    return wait;
  }

  private ready(): Redis | null {
    const redis = this.options.redis;
    return redis && redis.status === 'ready' ? redis : null;
  }
}
