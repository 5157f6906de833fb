import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { Receipt, ReceiptQuery } from '@yieldrouter/schemas';
import { fetchTransactionView } from '../fetchTransactionView';
import { ownerBalanceChange } from '../ownerBalanceChange';
import { rpcNotConfigured } from '../rpc';
import { matchVenueCall } from './matchVenueCall';
import { NAVI_USDC_SCALE, RAY, readNaviSupply } from './readVenueState';
import type { SuiVenue } from './suiVenue';
import { matchVenueEvents } from './venueEvents';

/** Navi's `ray_div` (rounded half up): the scaled units a USDC amount is at `index`. */
export function naviScaled(amountMicros: bigint, index: bigint): bigint {
  return (amountMicros * NAVI_USDC_SCALE * RAY + index / 2n) / index;
}

/**
 * A venue leg's receipt. The transaction must be the leg's own (`matchVenueCall`: owner, the
 * venue's function, this plan id) before anything in it counts; a failure fails the leg only
 * then. A success needs the protocol's event for the owner and USDC, the owner's USDC balance
 * change equal to the event's amount, and (Suilend, Scallop) the owner's receipt-coin change
 * equal to the event's receipt units: those are the shares. Navi has no receipt coin: its shares
 * are the scaled units of the amount at the reserve's supply index read now.
 */
export async function readVenueReceipt(
  client: SuiJsonRpcClient | undefined,
  query: ReceiptQuery,
  expected: { venue: SuiVenue; usdc: string; owner: string; planBytes: Uint8Array },
): Promise<Receipt> {
  if (!client) return rpcNotConfigured('receipt');
  const { txId, action } = query;
  const fetched = await fetchTransactionView(client, txId, 'receipt', () => true);
  if ('answer' in fetched) return fetched.answer;
  const { view } = fetched;
  const { venue, usdc, owner } = expected;
  if (!view.input) return { status: 'mismatch', txId, reason: 'the transaction shows no input' };
  const call = matchVenueCall(view.input, { ...expected, action });
  if (view.status === 'failure') {
    return call.status === 'matched'
      ? { status: 'failed', txId, reason: view.error ?? 'execution failed' }
      : { status: 'mismatch', txId, reason: `failed, not this leg's: ${call.reason}` };
  }
  if (call.status === 'mismatch') return { status: 'mismatch', txId, reason: call.reason };
  const event = matchVenueEvents(view.events, { venue, action, usdc, owner });
  if (event.status === 'mismatch') return { status: 'mismatch', txId, reason: event.reason };

  const sign = action === 'deposit' ? -1n : 1n;
  const change = ownerBalanceChange(view, owner, usdc);
  if (change === undefined || change * sign !== event.amount) {
    return {
      status: 'mismatch',
      txId,
      reason: `the owner's USDC change (${change ?? 0n}) is not the ${venue.venueId} event's ${event.amount}`,
    };
  }
  let shares: bigint;
  if (venue.kind === 'navi') {
    const supply = await readNaviSupply(client, venue, owner);
    if (supply.status !== 'ok') return supply;
    shares = naviScaled(event.amount, supply.supplyIndex);
  } else {
    const receiptChange = ownerBalanceChange(view, owner, venue.receiptCoinType) ?? 0n;
    if (event.receipts === undefined || -receiptChange * sign !== event.receipts) {
      return {
        status: 'mismatch',
        txId,
        reason: `the owner's ${venue.receiptCoinType} change (${receiptChange}) is not the event's ${event.receipts ?? 0n}`,
      };
    }
    shares = event.receipts;
  }
  return {
    status: 'confirmed',
    txId,
    planId: query.planId,
    amountMicros: event.amount,
    shares,
    block: view.checkpoint,
  };
}
