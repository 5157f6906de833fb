import { FeeError } from './errors';

/** Largest amount in micros (PostgreSQL BIGINT max, 2^63 − 1). */
export const MAX_MICROS = 9223372036854775807n;

export const BPS_DENOMINATOR = 10_000n;

/**
 * The highest yield skim anything may charge: the on-chain registries refuse more (the Solana
 * router's `set_fee_config`, `YR_MAX_SKIM_BPS` in yield_router.c; the EVM cage's `MAX_SKIM_BPS`).
 */
export const MAX_YIELD_SKIM_BPS = 1000;

/** The published fee schedule. Every rate lives here and nowhere else. */
export interface FeeSchedule {
  readonly version: string;
  readonly principalFeeBps: number;
  readonly depositFeeBps: number;
  readonly withdrawFeeBps: number;
  /** Share of harvested yield sent to protocol fees. */
  readonly yieldSkimBps: number;
  /** Highest skim the on-chain registry accepts. */
  readonly registryMaxYieldSkimBps: number;
  /** Harvest profit fee, applied after the skim; capped per harvest; switched off by default. */
  readonly harvestProfitFee: {
    readonly bps: number;
    readonly capMicros: bigint;
    readonly enabled: boolean;
  };
  readonly swapFeeBps: number;
  readonly bridgeFeeBps: number;
  /** The gas-sponsor plan's service fee, on the USDC the top-up swap sells. */
  readonly gasSponsorFeeBps: number;
  readonly slippage: { readonly defaultBps: number; readonly maxBps: number };
}

/**
 * The schedule in force (SPEC §Limits): principal 0, skim 500 bps (registry max 1000),
 * profit fee 100 bps capped at 10 USD and off. Swap and bridge service fees are our
 * published decision: 10 bps each; the gas-sponsor top-up carries 50 bps (a small amount, where
 * a fixed cost of sizing and quoting weighs more).
 *
 * @example
 * defaultFeeSchedule.yieldSkimBps // 500
 */
export const defaultFeeSchedule: FeeSchedule = {
  version: '2026-11-22',
  principalFeeBps: 0,
  depositFeeBps: 0,
  withdrawFeeBps: 0,
  yieldSkimBps: 500,
  registryMaxYieldSkimBps: 1000,
  harvestProfitFee: { bps: 100, capMicros: 10_000_000n, enabled: false },
  swapFeeBps: 10,
  bridgeFeeBps: 10,
  gasSponsorFeeBps: 50,
  slippage: { defaultBps: 100, maxBps: 500 },
};

/** Throws FeeError when `bps` is not an integer in 0..10000. */
export function assertBps(bps: number | bigint, field: string): bigint {
  if (typeof bps === 'number' && !Number.isInteger(bps)) {
    throw new FeeError(`${field} must be an integer number of bps`, { field });
  }
  const value = BigInt(bps);
  if (value < 0n || value > BPS_DENOMINATOR) {
    throw new FeeError(`${field} must be between 0 and 10000 bps`, { field });
  }
  return value;
}

/** Throws FeeError when an amount is negative or above 2^63 − 1. */
export function assertMicros(amount: bigint, field: string): bigint {
  if (amount < 0n) throw new FeeError(`${field} must not be negative`, { field });
  if (amount > MAX_MICROS) throw new FeeError(`${field} must be at most 2^63 - 1`, { field });
  return amount;
}

/**
 * Checks a schedule's internal consistency.
 *
 * @example
 * assertFeeSchedule(defaultFeeSchedule) // ok
 */
export function assertFeeSchedule(schedule: FeeSchedule): void {
  for (const field of [
    'principalFeeBps',
    'depositFeeBps',
    'withdrawFeeBps',
    'yieldSkimBps',
    'registryMaxYieldSkimBps',
    'swapFeeBps',
    'bridgeFeeBps',
    'gasSponsorFeeBps',
  ] as const) {
    assertBps(schedule[field], field);
  }
  assertBps(schedule.harvestProfitFee.bps, 'harvestProfitFee.bps');
  assertMicros(schedule.harvestProfitFee.capMicros, 'harvestProfitFee.capMicros');
  assertBps(schedule.slippage.defaultBps, 'slippage.defaultBps');
  assertBps(schedule.slippage.maxBps, 'slippage.maxBps');
  if (schedule.registryMaxYieldSkimBps > MAX_YIELD_SKIM_BPS) {
    throw new FeeError(
      `registryMaxYieldSkimBps exceeds the on-chain maximum (${MAX_YIELD_SKIM_BPS})`,
      {
        field: 'registryMaxYieldSkimBps',
      },
    );
  }
  if (schedule.yieldSkimBps > schedule.registryMaxYieldSkimBps) {
    throw new FeeError('yieldSkimBps exceeds the registry maximum', { field: 'yieldSkimBps' });
  }
  if (schedule.slippage.defaultBps > schedule.slippage.maxBps) {
    throw new FeeError('default slippage exceeds the maximum', { field: 'slippage.defaultBps' });
  }
}
