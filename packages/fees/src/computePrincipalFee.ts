import { bpsOf } from './bpsOf';
import type { FeeSchedule } from './feeSchedule';
import { defaultFeeSchedule } from './feeSchedule';

export interface ComputePrincipalFeeParameters {
  readonly amountMicros: bigint;
  /** `rebalance` and `route` move principal the owner already holds: the principal entry. */
  readonly kind: 'deposit' | 'withdraw' | 'route' | 'rebalance';
  readonly schedule?: FeeSchedule;
}

export interface ComputePrincipalFeeReturnType {
  readonly feeMicros: bigint;
  readonly netMicros: bigint;
}

/**
 * Fee on principal moves (0 in the published schedule).
 *
 * @example
 * computePrincipalFee({ amountMicros: 5_000_000n, kind: 'deposit' }) // { feeMicros: 0n, netMicros: 5_000_000n }
 */
export function computePrincipalFee({
  amountMicros,
  kind,
  schedule = defaultFeeSchedule,
}: ComputePrincipalFeeParameters): ComputePrincipalFeeReturnType {
  const bps =
    kind === 'deposit'
      ? schedule.depositFeeBps
      : kind === 'withdraw'
        ? schedule.withdrawFeeBps
        : schedule.principalFeeBps;
  const feeMicros = bpsOf(amountMicros, bps);
  return { feeMicros, netMicros: amountMicros - feeMicros };
}
