import type { PoolFacts } from '@yieldrouter/schemas';
import { percentToBps, usdToMicros } from './decimalScale';
import { readPoolFacts } from './poolFacts';
import type { PoolEntry } from './poolsResponse';
import type { ApyUnavailableReason } from './types';

/** The numbers of one pool, converted; or why the pool has no usable APY. */
export type PoolValues =
  | {
      readonly ok: true;
      readonly apyBps: number;
      readonly apyBaseBps: number | null;
      readonly apyRewardBps: number | null;
      readonly tvlUsdMicros: bigint | null;
      readonly facts: PoolFacts;
    }
  | { readonly ok: false; readonly reason: ApyUnavailableReason; readonly detail: string };

type Field<T> = { readonly ok: true; readonly value: T | null } | { readonly ok: false };

/** null / missing → null; a number the converter accepts → its value; anything else → invalid. */
function field<T>(entry: PoolEntry, name: string, convert: (value: number) => T | null): Field<T> {
  const raw = entry[name];
  if (raw === null || raw === undefined) return { ok: true, value: null };
  if (typeof raw !== 'number') return { ok: false };
  const value = convert(raw);
  return value === null ? { ok: false } : { ok: true, value };
}

/**
 * Converts one pool entry: `apy` (percent) → bps, `apyBase` / `apyReward` (percent) → bps or
 * null, `tvlUsd` (dollars) → micros or null. A field that is present but not a finite number in
 * range makes the whole pool a bad response; a null `apy` makes it `pool_has_no_apy`. Never a
 * default value.
 */
export function readPoolValues(entry: PoolEntry | 'duplicate' | undefined): PoolValues {
  if (entry === undefined) {
    return { ok: false, reason: 'pool_not_found', detail: 'the source does not list this pool' };
  }
  if (entry === 'duplicate') {
    return {
      ok: false,
      reason: 'source_bad_response',
      detail: 'the source lists this pool more than once',
    };
  }
  const apy = field(entry, 'apy', percentToBps);
  const apyBase = field(entry, 'apyBase', percentToBps);
  const apyReward = field(entry, 'apyReward', percentToBps);
  const tvlUsd = field(entry, 'tvlUsd', usdToMicros);
  if (!apy.ok || !apyBase.ok || !apyReward.ok || !tvlUsd.ok) {
    const fields = Object.entries({ apy, apyBase, apyReward, tvlUsd })
      .filter(([, parsed]) => !parsed.ok)
      .map(([name]) => name)
      .join(', ');
    return {
      ok: false,
      reason: 'source_bad_response',
      detail: `pool has invalid ${fields} (not a finite number in range)`,
    };
  }
  if (apy.value === null) {
    return {
      ok: false,
      reason: 'pool_has_no_apy',
      detail: 'the source lists the pool with apy null',
    };
  }
  return {
    ok: true,
    apyBps: apy.value,
    apyBaseBps: apyBase.value,
    apyRewardBps: apyReward.value,
    tvlUsdMicros: tvlUsd.value,
    facts: readPoolFacts(entry),
  };
}
