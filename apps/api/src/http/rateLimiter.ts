import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
}

export interface RateLimiterOptions {
  readonly redis: Redis | null;
  readonly windowSeconds: number;
  readonly logger: Logger;
  readonly prefix?: string;
}

/**
 * Fixed-window counter per identity. Redis-backed so instances share the budget; when Redis
 * is absent or failing it falls back to a per-process counter and says so once in the log.
 */
export class RateLimiter {
  private readonly memory = new Map<string, { window: number; count: number }>();
  private warnedFallback = false;
  private readonly prefix: string;

  constructor(private readonly options: RateLimiterOptions) {
    this.prefix = options.prefix ?? 'svc:rl:';
  }

  async consume(identity: string, limit: number): Promise<RateLimitDecision> {
    const windowMs = this.options.windowSeconds * 1000;
    const now = Date.now();
    const window = Math.floor(now / windowMs);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
    const count = await this.increment(identity, window, windowMs);
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds,
    };
  }

  private async increment(identity: string, window: number, windowMs: number): Promise<number> {
    const redis = this.options.redis;
    if (redis && redis.status === 'ready') {
      try {
        const key = `${this.prefix}${identity}:${window}`;
        const results = await redis.multi().incr(key).pexpire(key, windowMs).exec();
        const counted = results?.[0]?.[1];
        if (typeof counted === 'number') return counted;
      } catch (error) {
        this.warnFallback(error);
      }
    } else {
      this.warnFallback(null);
    }
    return this.incrementInMemory(identity, window);
  }

  private incrementInMemory(identity: string, window: number): number {
    const entry = this.memory.get(identity);
    if (!entry || entry.window !== window) {
      if (this.memory.size > 100_000) this.memory.clear();
      this.memory.set(identity, { window, count: 1 });
      return 1;
    }
    entry.count += 1;
    return entry.count;
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
