import { randomUUID } from 'node:crypto';
import type { ToolCallIdentity } from './deriveIdempotencyKey';
import { deriveIdempotencyKey, toolCallDigest } from './deriveIdempotencyKey';

export interface IdempotencyWindowOptions {
  /** How long after its first sighting a repeated call reuses its key. Default one hour. */
  readonly windowMs?: number;
  /** Calls remembered at most; past it the oldest are forgotten first. Default 50 000. */
  readonly maxCalls?: number;
  readonly now?: () => number;
}

interface Remembered {
  readonly key: string;
  readonly expiresAt: number;
}

/**
 * The Idempotency-Keys of recent write calls, kept in the server's memory. A call (caller, tool,
 * arguments) seen again within `windowMs` of its first sighting gets the first sighting's key,
 * wherever a clock hour ends in between; after that it gets a new key (a deliberate repeat an
 * hour later writes again). Kept per process and lost when it ends: share one window between
 * the sessions of a process so that a retry from a reconnected client is recognised.
 *
 * @example
 * const window = new IdempotencyWindow({ windowMs: 3_600_000 });
 * const key = window.keyFor({ scope, operationId: 'routeFunds', args });
 */
export class IdempotencyWindow {
  readonly windowMs: number;
  private readonly maxCalls: number;
  private readonly now: () => number;
  // In first-sighting order, so the entries that expire (or are evicted) first come first.
  private readonly calls = new Map<string, Remembered>();

  constructor(options: IdempotencyWindowOptions = {}) {
    this.windowMs = options.windowMs ?? 3_600_000;
    this.maxCalls = options.maxCalls ?? 50_000;
    this.now = options.now ?? Date.now;
    if (!(this.windowMs > 0) || !(this.maxCalls > 0)) {
      throw new RangeError('IdempotencyWindow: windowMs and maxCalls must be positive');
    }
  }

  /** How many calls are remembered now. */
  get size(): number {
    return this.calls.size;
  }

  /** The call's Idempotency-Key: its first sighting's within the window, else a new one. */
  keyFor(call: ToolCallIdentity): string {
    const now = this.now();
    this.forgetExpired(now);
    const digest = toolCallDigest(call);
    const remembered = this.calls.get(digest);
    if (remembered && remembered.expiresAt > now) return remembered.key;
    // Expired but not yet swept (the clock went back): re-inserted last, in sighting order.
    if (remembered) this.calls.delete(digest);
    const key = deriveIdempotencyKey({ ...call, sighting: randomUUID() });
    this.calls.set(digest, { key, expiresAt: now + this.windowMs });
    if (this.calls.size > this.maxCalls) {
      const oldest = this.calls.keys().next();
      if (!oldest.done) this.calls.delete(oldest.value);
    }
    return key;
  }

  /**
   * Forgets the call's key, so that the call made again is a new write: for an answer that
   * wrote nothing (a 4xx), which the API would otherwise replay to a retry made after the cause
   * was fixed.
   */
  forget(call: ToolCallIdentity): void {
    this.calls.delete(toolCallDigest(call));
  }

  private forgetExpired(now: number): void {
    for (const [digest, remembered] of this.calls) {
      if (remembered.expiresAt > now) return;
      this.calls.delete(digest);
    }
  }
}
