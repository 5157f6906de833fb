import type { FeeSchedule } from '@yieldrouter/fees';
import type { BalanceGuard, LedgerChain, SettlementLeg } from '@yieldrouter/ledger';
import type { Receipt } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { LegOutcome } from './recordLegOutcome';
import { releaseBooking } from './releaseBooking';
import { bookSettlement } from './settlementPostings';
import { bookSwap, bookUnwrap } from './swapBooking';
import type { UnwrapLegReceipt } from './unwrapLegReceipt';
import type { SwapLegReceipt } from './swapLegReceipt';

// What a leg's receipt books, per kind of leg: the outcome settleLeg.ts records.

/**
 * What a receipt that proves the leg's own transaction does: confirmed → the movement the
 * receipt proved is booked (bookSettlement); failed (reverted) → the reservation goes back.
 */
export function outcomeOf(
  leg: SettlementLeg,
  receipt: Extract<Receipt, { status: 'confirmed' | 'failed' }>,
  schedule: FeeSchedule,
): LegOutcome {
  if (receipt.status === 'failed') {
    return {
      status: 'failed',
      reason: `failed: ${receipt.reason}`,
      ...releaseBooking(leg),
      position: null,
    };
  }
  const booking = bookSettlement(
    leg,
    {
      amountMicros: receipt.amountMicros,
      shares: receipt.shares,
      ...(receipt.skimMicros === undefined ? {} : { skimMicros: receipt.skimMicros }),
    },
    schedule,
  );
  return {
    status: 'confirmed',
    amountMicros: receipt.amountMicros,
    shares: receipt.shares,
    // What the treasury received in the leg's own transaction (reconciled per chain).
    ...(receipt.skimMicros === undefined ? {} : { skimMicros: receipt.skimMicros }),
    reviewReason: booking.reviewReason,
    postings: booking.postings,
    position: booking.position,
    guards: booking.guards,
    autoPayReturnMicros: booking.autoPayReturnMicros,
  };
}

/**
 * A swap leg's receipt: confirmed → the amount out the logs proved; the books move per asset
 * (bookSwap: the input out of liquid as far as the books hold it, its service fee to
 * fees:protocol, the output into liquid), flagged when the owner sent another amount than the
 * plan's; reverted or filled below minAmountOut → failed, nothing moves (a swap reserves
 * nothing). `inputHeld`: the wallet's liquid balance in the input asset, read before.
 */
export function swapOutcomeOf(
  leg: SettlementLeg,
  receipt: Extract<Receipt, { status: 'confirmed' | 'failed' }>,
  swap: SwapLegReceipt,
  inputHeld: bigint,
): LegOutcome {
  if (receipt.status === 'failed' || !swap.moved) {
    const reason = receipt.status === 'failed' ? receipt.reason : 'no movement read';
    return { status: 'failed', reason: `failed: ${reason}`, postings: [], position: null };
  }
  const { amountIn } = swap.moved;
  return {
    status: 'confirmed',
    amountMicros: receipt.amountMicros,
    shares: null,
    reviewReason:
      amountIn === leg.amountMicros
        ? null
        : `the owner sent ${formatMicros(amountIn)} of the input; the plan swapped ${formatMicros(leg.amountMicros)}`,
    postings: leg.wallet
      ? bookSwap(
          { wallet: leg.wallet, chain: leg.chain as LedgerChain },
          { ...swap.moved, amountOut: swap.moved.amountOut - heldForDeposit(leg, swap.moved) },
          inputHeld,
        )
      : [],
    position: null,
    // The input held is read again under the booking's locks: a concurrent settlement that
    // moved it (a swap that bought what this one sells) makes this one compute again.
    guards: leg.wallet ? [liquidGuard(leg, swap.inputAsset, inputHeld)] : [],
  };
}

/** The wallet's liquid balance in `asset` must still be `expectMicros` when the leg books. */
const liquidGuard = (leg: SettlementLeg, asset: string, expectMicros: bigint): BalanceGuard => ({
  account: {
    wallet: leg.wallet as string,
    chain: leg.chain as LedgerChain,
    bucket: 'liquid',
    asset,
  },
  expectMicros,
});

/**
 * A cross-asset route or deposit (swap legs, then deposit legs): its deposit leg brings the
 * swap's minimum out onto the books itself (reserved at prepare, or from the chain when it
 * settles), so the swap credits liquid only with what it paid above that minimum — what stays
 * in the owner's wallet.
 */
function heldForDeposit(leg: SettlementLeg, moved: { readonly amountOut: bigint }): bigint {
  if (leg.planKind !== 'route' && leg.planKind !== 'deposit') return 0n;
  const swap = leg.swap;
  const minimum =
    typeof swap === 'object' && swap !== null && !Array.isArray(swap)
      ? swap['minAmountOutMicros']
      : undefined;
  if (typeof minimum !== 'string' || !/^(0|[1-9][0-9]*)$/.test(minimum)) return 0n;
  const held = BigInt(minimum);
  return held < moved.amountOut ? held : moved.amountOut;
}

/**
 * An unwrap leg's receipt: confirmed → what the logs show unwrapped leaves liquid in the wrapped
 * asset (as far as the books hold it) and comes into liquid in the native asset (a wrap leg:
 * the reverse); reverted → failed, nothing moves.
 */
export function unwrapOutcomeOf(
  leg: SettlementLeg,
  receipt: Extract<Receipt, { status: 'confirmed' | 'failed' }>,
  wrapping: Pick<UnwrapLegReceipt, 'wrappedAsset' | 'direction' | 'takenAsset'>,
  /** What the books hold of the asset the leg takes (`wrapping.takenAsset`). */
  held: bigint,
): LegOutcome {
  if (receipt.status === 'failed') {
    return { status: 'failed', reason: `failed: ${receipt.reason}`, postings: [], position: null };
  }
  const at = leg.wallet ? { wallet: leg.wallet, chain: leg.chain as LedgerChain } : undefined;
  return {
    status: 'confirmed',
    amountMicros: receipt.amountMicros,
    shares: null,
    reviewReason: null,
    postings: at
      ? bookUnwrap(at, wrapping.wrappedAsset, receipt.amountMicros, held, wrapping.direction)
      : [],
    position: null,
    guards: at ? [liquidGuard(leg, wrapping.takenAsset, held)] : [],
  };
}
