/**
 * How a venue may round a deposit and a withdrawal, as its published source does it:
 * - `exact` (the default): it takes (pays) exactly the amount asked;
 * - `receipt`: it mints floor(asked / rate) receipts and takes the liquidity they are worth,
 *   rounded up, so it may take less than asked, by less than one receipt's worth, never more.
 *   Kamino Lend: `Reserve::compute_depositable_amount_and_minted_collateral`
 *   (Kamino-Finance/klend, programs/klend/src/state/reserve.rs), called by
 *   `lending_operations::deposit_reserve_liquidity`. A withdrawal redeems receipts, paying
 *   floor(receipts × rate) (`Reserve::redeem_collateral` through
 *   `CollateralExchangeRate::collateral_to_liquidity`, same file); the plan burns the receipts
 *   worth at least the amount, ceil(asked / rate), so the owner receives at least what was asked
 *   and less than one receipt's worth more (`withdrawRoundingMicros`).
 * A venue declares it per direction: Jupiter Lend and Save take a deposit exactly and redeem the
 * same way (floor(receipts × rate)), so they declare it for withdrawals only
 * (docs/venues/solana.md cites each program's source).
 */
export type DepositRounding = 'exact' | 'receipt';

/**
 * The most a deposit that took `taken` micros for `minted` receipts may have kept back of what
 * was asked: 0 for `exact`; for `receipt`, one receipt's worth less a micro. A receipt is worth
 * the rate r ≤ taken / minted (taken = ceil(minted × r)), and asked − taken < r, so the
 * shortfall is at most ceil(taken / minted) − 1. Nothing minted: 0 (nothing may be kept).
 *
 * @example
 * depositRoundingMicros('receipt', 1_000_111n, 893_000n) // 1n
 */
export function depositRoundingMicros(
  rounding: DepositRounding,
  taken: bigint,
  minted: bigint,
): bigint {
  if (rounding === 'exact' || minted <= 0n || taken <= 0n) return 0n;
  return (taken + minted - 1n) / minted - 1n;
}

/**
 * The most a withdrawal that paid `received` micros for `burned` receipts may have paid beyond
 * what was asked: 0 for `exact`; for `receipt`, one receipt's worth rounded down. The plan burns
 * c = ceil(asked / r) receipts, so (c − 1) × r < asked, and the venue pays floor(c × r): the
 * excess is an integer below r, and c × floor(r) ≤ floor(c × r) = received, so it is at most
 * floor(received / burned). Nothing burned: 0 (nothing may be paid beyond the amount).
 *
 * @example
 * withdrawRoundingMicros('receipt', 500_056n, 446_478n) // 1n
 */
export function withdrawRoundingMicros(
  rounding: DepositRounding,
  received: bigint,
  burned: bigint,
): bigint {
  if (rounding === 'exact' || burned <= 0n || received <= 0n) return 0n;
  return received / burned;
}
