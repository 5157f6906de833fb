import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { Receipt, ReceiptQuery, Unavailable } from '@yieldrouter/schemas';
import { SuiBadResponseError } from '../errors';
import { fetchTransactionView } from '../fetchTransactionView';
import { normalizeSuiOwner } from '../address';
import { ownerBalanceChange } from '../ownerBalanceChange';
import { rpcNotConfigured, suiRpcFailure } from '../rpc';
import type { TransactionView } from '../shapes';
import { matchVenueCall } from './matchVenueCall';
import { naviSupplyEntryId } from './readVenueState';
import type { NaviVenue, SuiVenue } from './suiVenue';
import { matchVenueEvents } from './venueEvents';

/** The owner's scaled Navi balance at one version of their `user_state` entry (0: none). */
async function scaledAt(client: SuiJsonRpcClient, entryId: string, version: string | undefined) {
  if (version === undefined) return 0n;
  const past = await client.tryGetPastObject({
    id: entryId,
    version: Number(version),
    options: { showContent: true },
  });
  const content = past.status === 'VersionFound' ? past.details.content : undefined;
  if (!content || content.dataType !== 'moveObject') {
    throw new SuiBadResponseError(`navi balance entry ${entryId} at version ${version} not found`);
  }
  const value = (content.fields as Record<string, unknown>).value;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new SuiBadResponseError(`navi balance entry ${entryId}: no scaled balance`);
  }
  return BigInt(value);
}

/**
 * Navi's shares for a leg: how much the transaction moved the owner's scaled balance, read from
 * their `user_state` entry at the version the transaction wrote and the one before (exactly what
 * Navi minted or burnt at the index it used).
 */
async function naviShares(
  client: SuiJsonRpcClient,
  view: TransactionView,
  venue: NaviVenue,
  owner: string,
): Promise<{ shares: bigint } | { reason: string } | Unavailable> {
  const entryId = naviSupplyEntryId(venue, owner);
  const change = view.changedObjects.find((item) => normalizeSuiAddress(item.objectId) === entryId);
  if (!change) return { reason: "the transaction did not write the owner's Navi balance" };
  try {
    const after = await scaledAt(client, entryId, change.version);
    const before = await scaledAt(client, entryId, change.previousVersion);
    return { shares: after > before ? after - before : before - after };
  } catch (error) {
    return suiRpcFailure(error, 'receipt');
  }
}

/**
 * A venue leg's receipt. The transaction must be the leg's own (`matchVenueCall`: owner, the
 * venue's function, this plan id) before anything in it counts; a failure fails the leg only
 * then. A success needs the protocol's event for the owner and USDC, the owner's USDC balance
 * change equal to the event's amount, and (Suilend, Scallop) the owner's receipt-coin change
 * equal to the event's receipt units: those are the shares. Navi has no receipt coin: its shares
 * are the change of the owner's scaled balance the transaction wrote (`naviShares`).
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
  // A withdrawal that pays the skim in the same transaction: the venue's USDC went to the owner
  // and the treasury, and nowhere else.
  const skim = skimOf(view, query, usdc, owner);
  if (change === undefined || change * sign + skim !== event.amount) {
    return {
      status: 'mismatch',
      txId,
      reason: `the owner's USDC change (${change ?? 0n})${skim > 0n ? ` and the treasury's (${skim})` : ''} are not the ${venue.venueId} event's ${event.amount}`,
    };
  }
  let shares: bigint;
  if (venue.kind === 'navi') {
    const moved = await naviShares(client, view, venue, owner);
    if ('status' in moved) return moved;
    if ('reason' in moved) return { status: 'mismatch', txId, reason: moved.reason };
    shares = moved.shares;
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
    amountMicros: event.amount - skim,
    shares,
    ...(query.skimRecipient === undefined ? {} : { skimMicros: skim }),
    block: view.checkpoint,
  };
}

/** What the treasury a withdrawal names received in USDC (0 when none, or not a withdrawal). */
function skimOf(view: TransactionView, query: ReceiptQuery, usdc: string, owner: string): bigint {
  if (query.action !== 'withdraw' || query.skimRecipient === undefined) return 0n;
  const treasury = normalizeSuiOwner(query.skimRecipient);
  if (treasury === undefined || treasury === owner) return 0n;
  const received = ownerBalanceChange(view, treasury, usdc) ?? 0n;
  return received > 0n ? received : 0n;
}
