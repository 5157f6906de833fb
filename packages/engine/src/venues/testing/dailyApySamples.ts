// Test support: APY history as the keeper's refresh stores it. Product code never imports it.
import type { ApySampleInput } from '@yieldrouter/ledger';

const DAY_MS = 86_400_000;

/**
 * `count` readings of `bps` for a venue, one a day back from a minute before `at`: its 30-day
 * mean is `bps` on `count` samples.
 */
export function dailyApySamples(
  venueId: string,
  bps: number,
  { at = new Date(), count = 5 }: { readonly at?: Date; readonly count?: number } = {},
): ApySampleInput[] {
  return Array.from({ length: count }, (_, day) => ({
    venueId,
    source: 'scripted',
    observedAt: new Date(at.getTime() - day * DAY_MS - 60_000),
    value: { status: 'ok', apyBps: bps, apyBaseBps: null, apyRewardBps: null, tvlUsdMicros: null },
  }));
}
