import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { Transaction, TransactionObjectArgument } from '@mysten/sui/transactions';
import type { Blocker } from '@yieldrouter/schemas';
import type { SuiLegAction, SuiLegPlan } from '../legPlan';
import type { SuiVenue } from './suiVenue';
import type { SharedObjectInput } from './venueCalls';
import { appendVenueDeposit, appendVenueWithdraw } from './venueCalls';
import { withdrawReceipts } from './withdrawReceipts';

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
 * Appends a venue leg's calls: a withdrawal that burns receipts reads the protocol's rate first
 * (the only RPC call), then the plan id goes in as a `vector<u8>` pure input and the protocol's own
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
  const { venue } = plan;
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
    appendVenueWithdraw(context, { receipt, amount: plan.amount });
  }
  return { status: 'ok' };
}
