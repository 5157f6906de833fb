import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { Transaction, TransactionObjectArgument } from '@mysten/sui/transactions';
import type { Blocker } from '@yieldrouter/schemas';
import type { SuiLegAction, SuiLegPlan } from '../legPlan';
import type { SuiVenue } from './suiVenue';
import type { SharedObjectInput } from './venueCalls';
import { appendVenueDeposit, appendVenueWithdraw } from './venueCalls';
import { withdrawReceipts } from './withdrawReceipts';
import { locateSuilendReserve } from './readVenueState';

/** How a leg form (wallet-resolved JSON or final bytes) puts objects and coins into the transaction. */
export interface VenueLegInputs {
  readonly object: SharedObjectInput;
  /** The USDC coin of `amount` a deposit pays in. */
  readonly usdcCoin: (amount: bigint) => TransactionObjectArgument;
  /** The receipt coin of `receipts` units a withdrawal burns (undefined when the venue has none). */
  readonly receiptCoin: (
    venue: SuiVenue,
    receipts: bigint,
  ) => TransactionObjectArgument | undefined;
}

export type VenueLegOutcome =
  { readonly status: 'ok' } | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

/**
 * Suilend's leg calls name USDC's reserve by its index in the market: read it from the
 * `LendingMarket` (a configured `ids.reserveIndex` is checked there). When the market cannot be
 * read (no RPC, a failed or unreadable answer) a configured index is used as given, and with
 * none configured the leg is blocked (`rpc_unavailable`); a market without a USDC reserve or a configured index that is another
 * reserve's blocks it with `venue_not_configured` naming the id.
 */
async function withSuilendReserve(
  client: SuiJsonRpcClient | undefined,
  venue: SuiVenue,
  usdc: string,
): Promise<{ readonly venue: SuiVenue } | { readonly blockers: readonly Blocker[] }> {
  if (venue.kind !== 'suilend') return { venue };
  if (!client && venue.reserveIndex !== undefined) return { venue };
  const located = await locateSuilendReserve(client, venue, usdc);
  if (located.status === 'ok') return { venue: { ...venue, reserveIndex: located.reserveIndex } };
  // A configured index the chain cannot confirm is used as given (the call aborts on chain if
  // it is wrong); only a market read that shows it is another reserve's refuses it.
  if (located.status === 'unavailable' && venue.reserveIndex !== undefined) return { venue };
  const details = { venueId: venue.venueId };
  if (located.status === 'mismatch') {
    return {
      blockers: [
        {
          code: 'venue_not_configured',
          field: located.field,
          message: `Venue ${venue.venueId}: ${located.field} does not name a USDC reserve: ${located.detail}.`,
          details,
        },
      ],
    };
  }
  return {
    blockers: [
      {
        code: 'rpc_unavailable',
        field: 'rpcUrl',
        message:
          `Venue ${venue.venueId}: USDC's reserve index could not be read from the lending market ` +
          `(set ids.reserveIndex or a Sui RPC): ${located.detail}`,
        details: { ...details, reason: located.reason },
      },
    ],
  };
}

/**
 * Appends a venue leg's calls: Suilend's reserve index is read from its market first, a
 * withdrawal that burns receipts reads the protocol's rate (the only RPC calls), then the plan id goes in as a `vector<u8>` pure input and the protocol's own
 * deposit or withdraw functions are called (venueCalls.ts). Both leg forms share this; they differ
 * only in how objects and coins enter the transaction (`inputs`).
 */
export async function appendVenueLeg(
  client: SuiJsonRpcClient | undefined,
  tx: Transaction,
  plan: SuiLegPlan & { readonly venue: SuiVenue },
  action: SuiLegAction,
  inputs: VenueLegInputs,
): Promise<VenueLegOutcome> {
  const located = await withSuilendReserve(client, plan.venue, plan.usdc);
  if ('blockers' in located) return { status: 'blocked', blockers: located.blockers };
  const { venue } = located;
  let receipts: bigint | undefined;
  if (action === 'withdraw') {
    const read = await withdrawReceipts(client, venue, plan.usdc, plan.owner, plan.amount);
    if (read.status === 'blocked') return read;
    receipts = read.receipts;
  }
  tx.pure.vector('u8', plan.planBytes);
  const context = { tx, venue, usdc: plan.usdc, owner: plan.owner, object: inputs.object };
  if (action === 'deposit') {
    appendVenueDeposit(context, inputs.usdcCoin(plan.amount), plan.amount);
  } else {
    const receipt = receipts === undefined ? undefined : inputs.receiptCoin(venue, receipts);
    appendVenueWithdraw(context, { receipt, amount: plan.amount, skim: plan.skim });
  }
  return { status: 'ok' };
}
