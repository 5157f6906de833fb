import { randomBytes } from 'node:crypto';

/**
 * 32 hex that sort by creation time: the time in ms (12 hex, as in a UUIDv7) then 80 random
 * bits, like `ledger_time_ordered_hex()` (migration 0051). Ids made of it are written at the
 * right edge of their primary key's B-tree instead of on a random page.
 */
export function timeOrderedHex(now: number = Date.now()): string {
  return Math.floor(now).toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
}
