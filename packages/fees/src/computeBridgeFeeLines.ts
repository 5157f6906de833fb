import { bpsOf } from './bpsOf';
import { FeeError } from './errors';
import type { FeeSchedule } from './feeSchedule';
import { assertMicros, defaultFeeSchedule } from './feeSchedule';

export interface ComputeBridgeFeeLinesParameters {
  readonly amountMicros: bigint;
  /** The rail's own fee in micros, as the bridge quotes it. */
  readonly railFeeMicros: bigint;
  readonly schedule?: FeeSchedule;
}

export type BridgeFeeLine =
  | { readonly kind: 'service_bridge_fee'; readonly bps: number; readonly amountMicros: bigint }
  | { readonly kind: 'rail_fee'; readonly amountMicros: bigint };

export interface ComputeBridgeFeeLinesReturnType {
  readonly lines: readonly [BridgeFeeLine, BridgeFeeLine];
  readonly totalFeeMicros: bigint;
  readonly netDeliveredMicros: bigint;
}

/**
 * Fee lines of a bridge: the service's bridge fee (bps, rounded down) plus the rail fee.
 *
 * @example
 * computeBridgeFeeLines({ amountMicros: 10_000_000n, railFeeMicros: 50_000n }).netDeliveredMicros // 9_940_000n
 */
export function computeBridgeFeeLines({
  amountMicros,
  railFeeMicros,
  schedule = defaultFeeSchedule,
}: ComputeBridgeFeeLinesParameters): ComputeBridgeFeeLinesReturnType {
  assertMicros(railFeeMicros, 'railFeeMicros');
  const service = bpsOf(amountMicros, schedule.bridgeFeeBps);
  const totalFeeMicros = service + railFeeMicros;
  if (totalFeeMicros > amountMicros) {
    throw new FeeError('bridge fees exceed the amount', { field: 'amountMicros' });
  }
  return {
    lines: [
      { kind: 'service_bridge_fee', bps: schedule.bridgeFeeBps, amountMicros: service },
      { kind: 'rail_fee', amountMicros: railFeeMicros },
    ],
    totalFeeMicros,
    netDeliveredMicros: amountMicros - totalFeeMicros,
  };
}
