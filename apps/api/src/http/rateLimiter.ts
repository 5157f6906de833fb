import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** The Redis key prefix of rate-limit and failed-authentication counters by default. */
export const RATE_LIMIT_PREFIX = 'svc:rl:';

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
  /** When the window resets (epoch ms). */
  readonly resetAtMs: number;
  /**
   * Nothing is left for the identity in this window, here or in the shared count (the next
   * request would be refused): true with every refusal, and with the allowed request that took
   * the last token.
   */
  readonly exhausted: boolean;
}

export interface RateLimiterOptions {
  readonly redis: Redis | null;
  readonly windowSeconds: number;
  readonly logger: Logger;
  readonly prefix?: string;
  /**
   * Tokens an instance leases from Redis at a time, as a fraction of the limit (default 1/20).
   * A lease of 1 (small limits) makes every request a Redis call; larger leases trade a little
   * precision across instances (unused leased tokens expire with the window) for far fewer
   * round trips.
   */
  readonly leaseFraction?: number;
}

interface WindowState {
  window: number;
  /** Total the shared counter reported at the last lease (all instances). */
  sharedCount: number;
  /** Tokens leased to this instance and not yet used. */
  available: number;
  exhausted: boolean;
  pending: Promise<void> | null;
}

/**
 * Fixed-window limit per identity, shared across instances through Redis: each instance
 * leases tokens with one INCRBY and spends them locally. When Redis is absent or failing it
 * falls back to per-process counting and says so once in the log.
 */
export class RateLimiter {
  private readonly states = new Map<string, WindowState>();
  private warnedFallback = false;
  private readonly prefix: string;
  private readonly leaseFraction: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.prefix = options.prefix ?? RATE_LIMIT_PREFIX;
    this.leaseFraction = options.leaseFraction ?? 1 / 20;
  }

  /**
   * Decides without I/O when this instance still holds leased tokens (the common case);
   * returns null when a Redis lease is needed, so the caller awaits `consume` only then.
   */
  tryConsumeLocal(identity: string, limit: number): RateLimitDecision | null {
    const windowMs = this.options.windowSeconds * 1000;
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const state = this.states.get(identity);
    if (!state || state.window !== window || (state.available === 0 && !state.exhausted)) {
      return null;
    }
    return this.decide(state, limit, (window + 1) * windowMs, now);
  }

  async consume(identity: string, limit: number): Promise<RateLimitDecision> {
    const windowMs = this.options.windowSeconds * 1000;
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const state = this.stateFor(identity, window);
    while (state.available === 0 && !state.exhausted) {
      state.pending ??= this.lease(identity, state, limit, windowMs).finally(() => {
        state.pending = null;
      });
      await state.pending;
    }
    return this.decide(state, limit, (window + 1) * windowMs, now);
  }

  private decide(
    state: WindowState,
    limit: number,
    resetAtMs: number,
    now: number,
  ): RateLimitDecision {
    const resetSeconds = Math.max(1, Math.ceil((resetAtMs - now) / 1000));
    if (state.available === 0) {
      return { allowed: false, limit, remaining: 0, resetSeconds, resetAtMs, exhausted: true };
    }
    state.available -= 1;
    const remaining = Math.max(0, limit - state.sharedCount + state.available);
    // Once the shared count has reached the limit, a lease grants nothing more in this window.
    const exhausted = state.available === 0 && state.sharedCount >= limit;
    return { allowed: true, limit, remaining, resetSeconds, resetAtMs, exhausted };
  }

  private stateFor(identity: string, window: number): WindowState {
    let state = this.states.get(identity);
    if (!state || state.window !== window) {
      if (this.states.size > 100_000) this.states.clear();
      state = { window, sharedCount: 0, available: 0, exhausted: false, pending: null };
      this.states.set(identity, state);
    }
    return state;
  }

  private async lease(
    identity: string,
    state: WindowState,
    limit: number,
    windowMs: number,
  ): Promise<void> {
    const chunk = Math.max(1, Math.floor(limit * this.leaseFraction));
    const total = await this.incrementShared(identity, state, chunk, windowMs);
    const before = total - chunk;
    const granted = Math.max(0, Math.min(chunk, limit - before));
    state.sharedCount = total;
    state.available += granted;
    if (granted < chunk) state.exhausted = true;
  }

  private async incrementShared(
    identity: string,
    state: WindowState,
    chunk: number,
    windowMs: number,
  ): Promise<number> {
    const redis = this.options.redis;
    if (redis && redis.status === 'ready') {
      try {
        const key = `${this.prefix}${identity}:${state.window}`;
        const results = await redis.multi().incrby(key, chunk).pexpire(key, windowMs).exec();
        const counted = results?.[0]?.[1];
        if (typeof counted === 'number') return counted;
      } catch (error) {
        this.warnFallback(error);
      }
    } else {
      this.warnFallback(null);
    }
    // Per-process fallback: this instance's own running total.
    return state.sharedCount + chunk;
  }

  private warnFallback(error: unknown): void {
    if (this.warnedFallback) return;
    this.warnedFallback = true;
    this.options.logger.warn(
      { err: error instanceof Error ? error.message : undefined },
      'rate limiting falls back to per-process counters: Redis is unavailable',
    );
  }
}
