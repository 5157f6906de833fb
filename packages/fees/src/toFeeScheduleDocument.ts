import type { FeeSchedule } from './feeSchedule';

export interface FeeScheduleDocument {
  readonly version: string;
  readonly unit: 'bps';
  readonly amountFormat: string;
  readonly principalFeeBps: number;
  readonly depositFeeBps: number;
  readonly withdrawFeeBps: number;
  readonly yieldSkimBps: number;
  readonly registryMaxYieldSkimBps: number;
  readonly harvestProfitFee: { bps: number; capMicros: string; enabled: boolean };
  readonly swapFeeBps: number;
  readonly bridgeFeeBps: number;
  readonly gasSponsorFeeBps: number;
  readonly slippage: { defaultBps: number; maxBps: number };
}

/**
 * The JSON-safe form served by GET /svc/fees (bigint amounts as decimal strings).
 *
 * @example
 * toFeeScheduleDocument(defaultFeeSchedule).harvestProfitFee.capMicros // "10000000"
 */
export function toFeeScheduleDocument(schedule: FeeSchedule): FeeScheduleDocument {
  return {
    version: schedule.version,
    unit: 'bps',
    amountFormat: 'integer micros string',
    principalFeeBps: schedule.principalFeeBps,
    depositFeeBps: schedule.depositFeeBps,
    withdrawFeeBps: schedule.withdrawFeeBps,
    yieldSkimBps: schedule.yieldSkimBps,
    registryMaxYieldSkimBps: schedule.registryMaxYieldSkimBps,
    harvestProfitFee: {
      bps: schedule.harvestProfitFee.bps,
      capMicros: schedule.harvestProfitFee.capMicros.toString(10),
      enabled: schedule.harvestProfitFee.enabled,
    },
    swapFeeBps: schedule.swapFeeBps,
    bridgeFeeBps: schedule.bridgeFeeBps,
    gasSponsorFeeBps: schedule.gasSponsorFeeBps,
    slippage: { ...schedule.slippage },
  };
}
