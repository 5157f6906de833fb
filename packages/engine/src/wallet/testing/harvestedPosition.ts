import { computeHarvestFees } from '@yieldrouter/fees';
import type { PositionState } from '@yieldrouter/ledger';

/** 40 USDC in, 4 USDC of yield harvested (marked): 200_000 retained for the protocol. */
export const HARVEST = computeHarvestFees({ grossYieldMicros: 4_000_000n });

/** The position after that harvest: 40 shares marked at 44 USDC, the fee retained in it. */
export const HARVESTED_POSITION: PositionState = {
  shares: 40_000_000n,
  sharesKnown: true,
  markMicros: 44_000_000n,
  feesRetainedMicros: HARVEST.protocolFeeMicros,
  version: 1n,
};

/** The owner's staked balance in it: the mark less what the protocol retained. */
export const STAKED_AFTER_HARVEST = 44_000_000n - HARVEST.protocolFeeMicros;

/** What a booking's postings add up to on `account` (compared as JSON). */
export const sumOn = (
  postings: readonly { account: object; amountMicros: bigint }[],
  account: object,
): bigint =>
  postings
    .filter((p) => JSON.stringify(p.account) === JSON.stringify(account))
    .reduce((total, p) => total + p.amountMicros, 0n);
