import { RAY, rayDiv, rayDivCeil, rayDivFloor, rayMul, rayMulFloor } from './rayMath';

/** The first Pool revision (`POOL_REVISION()`) with Aave v3.5's TokenMath rounding. */
export const AAVE_V3_5_POOL_REVISION = 9n;

/** How one Aave v3 pool revision converts between underlying amounts and scaled aTokens. */
export interface AaveTokenMath {
  /** `v3.0` up to v3.4 (half up everywhere) or `v3.5` (TokenMath: in the protocol's favour). */
  readonly rounding: 'v3.0' | 'v3.5';
  /** The scaled units a supply of `amount` at `index` mints. */
  mintScaled(amount: bigint, index: bigint): bigint;
  /** The scaled units a withdrawal of `amount` at `index` burns. */
  burnScaled(amount: bigint, index: bigint): bigint;
  /** What `scaled` units are worth at `index`: the aToken's `balanceOf`. */
  balanceOf(scaled: bigint, index: bigint): bigint;
  /**
   * Whether an aToken Mint/Burn that moved `eventAmount` of balance (Mint: value −
   * balanceIncrease; Burn: value + balanceIncrease; a withdrawal's Mint: balanceIncrease −
   * value) is the event of `scaled` units minted or burned for `amount` at `index`.
   */
  eventMatches(eventAmount: bigint, amount: bigint, scaled: bigint, index: bigint): boolean;
}

const halfUp: AaveTokenMath = {
  rounding: 'v3.0',
  mintScaled: rayDiv,
  burnScaled: rayDiv,
  balanceOf: rayMul,
  // v3.0–v3.4 emit value = amount ± balanceIncrease: the event's amount is the amount itself.
  eventMatches: (eventAmount, amount) => eventAmount === amount,
};

const tokenMath35: AaveTokenMath = {
  rounding: 'v3.5',
  mintScaled: rayDivFloor,
  burnScaled: rayDivCeil,
  balanceOf: rayMulFloor,
  // v3.5 emits differences of floored balances: floor((s ± m)·i) − floor(s·i), which is
  // floor(m·i) or floor(m·i) + 1 whatever the holder's scaled balance s was.
  eventMatches: (eventAmount, _amount, scaled, index) => {
    const floor = (scaled * index) / RAY;
    return eventAmount === floor || eventAmount === floor + 1n;
  },
};

/**
 * Aave v3's scaled-balance arithmetic for a pool at `poolRevision` (what its `POOL_REVISION()`
 * answers): from revision 9 (v3.5) on, TokenMath rounds a supply's scaled amount down
 * (`rayDivFloor`), a withdrawal's up (`rayDivCeil`) and a balance down (`rayMulFloor`); earlier
 * revisions round all three half up (`rayDiv`, `rayMul`).
 *
 * @example
 * aaveTokenMath(9n).mintScaled(5_000_000n, 11n * 10n ** 26n) // 4_545_454n
 * aaveTokenMath(8n).mintScaled(5_000_000n, 11n * 10n ** 26n) // 4_545_455n
 */
export function aaveTokenMath(poolRevision: bigint): AaveTokenMath {
  return poolRevision >= AAVE_V3_5_POOL_REVISION ? tokenMath35 : halfUp;
}
