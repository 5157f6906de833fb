import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest } from '@mysten/sui/utils';
import type { Receipt, ReceiptQuery } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import { matchRouterEvent } from './events';
import { matchLegCall } from './legCall';
import { ownerBalanceChange } from './ownerBalanceChange';
import { readVenueReceipt } from './venues/readVenueReceipt';
import { resolveSuiVenue } from './venues/suiVenue';
import { rpcNotConfigured } from './rpc';
import { ROUTER_MODULE, routerEventName } from './router';
import type { TransactionView } from './shapes';
import { fetchTransactionView } from './fetchTransactionView';

function unavailable(reason: 'asset_not_configured' | 'no_standard_reader', detail: string) {
  return { status: 'unavailable', reason, detail } as const;
}

/** What a settled leg moved: USDC from the owner's balance change, shares from the receipt coin's. */
function settle(
  view: TransactionView,
  query: ReceiptQuery,
  expected: { owner: string; usdc: string },
  eventAmount: bigint,
): Receipt {
  const { owner } = expected;
  const txId = query.txId;
  const deposit = query.action === 'deposit';
  const change = ownerBalanceChange(view, owner, expected.usdc);
  // USDC leaves the owner on a deposit and reaches them on a withdrawal; shares the other way.
  const sign = deposit ? -1n : 1n;
  if (change === undefined || change * sign <= 0n) {
    const moved = deposit ? 'left' : 'reached';
    return { status: 'mismatch', txId, reason: `no USDC ${moved} the owner in this transaction` };
  }
  const amount = change * sign;
  if (amount !== eventAmount) {
    return {
      status: 'mismatch',
      txId,
      reason: `the owner's USDC change (${amount}) differs from the router event (${eventAmount})`,
    };
  }
  return {
    status: 'confirmed',
    txId,
    planId: query.planId,
    amountMicros: amount,
    shares: null,
    block: view.checkpoint,
  };
}

/**
 * What the chain says about a leg, checked against the plan before any amount is believed.
 * Not found → pending. A failed transaction fails the leg only when its input proves it is the
 * leg's own (sender = owner, our router's entry point with this plan id and adapter, see
 * `matchLegCall`); any other failed transaction is a mismatch. A successful one needs the router
 * event for (plan, owner[, adapter]) and the owner's USDC balance change equal to it; venue legs
 * take their shares from the owner's balance change of the venue's receipt coin (minted on a
 * deposit, burned on a withdrawal). Amounts and shares never come from the caller.
 *
 * @throws InvalidChainInputError for a malformed txId, owner or planId.
 * @example
 * await readSuiReceipt(client, config, { txId, planId, owner, action: 'deposit', target })
 * // { status: 'confirmed', txId, planId, amountMicros: 12_500_000n, shares: 12_000_000n, block: '4242' }
 */
export async function readSuiReceipt(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  query: ReceiptQuery,
): Promise<Receipt> {
  if (!isValidTransactionDigest(query.txId)) {
    throw new InvalidChainInputError('txId', 'txId: must be a base58 Sui transaction digest');
  }
  const owner = requireSuiAddress('owner', query.owner);
  const planBytes = planIdToBytes(query.planId);
  if (query.target.kind === 'venue') {
    const usdc = config.usdcCoinType;
    if (usdc === undefined) {
      return unavailable('asset_not_configured', 'receipt: the USDC coin type is not configured');
    }
    const resolved = resolveSuiVenue(query.target.venue, usdc);
    if (resolved.status === 'blocked') {
      const why = resolved.blockers.map((blocker) => blocker.message).join(' ');
      return unavailable('no_standard_reader', `receipt: ${why}`);
    }
    return readVenueReceipt(client, query, { venue: resolved.venue, usdc, owner, planBytes });
  }
  const packageId = config.packageId;
  if (packageId === undefined) {
    return unavailable(
      'no_standard_reader',
      'receipt: the Sui router package id is not configured',
    );
  }
  const usdc = config.usdcCoinType;
  if (usdc === undefined) {
    return unavailable('asset_not_configured', 'receipt: the USDC coin type is not configured');
  }
  if (!client) return rpcNotConfigured('receipt');

  const fetched = await fetchTransactionView(
    client,
    query.txId,
    'receipt',
    (read) => read.status === 'failure',
  );
  if ('answer' in fetched) return fetched.answer;
  const { view } = fetched;
  if (view.status === 'failure' && view.input) {
    const call = matchLegCall(view.input, {
      packageId,
      action: query.action,
      planBytes,
      owner,
      adapter: undefined,
    });
    return call.status === 'matched'
      ? { status: 'failed', txId: query.txId, reason: view.error ?? 'execution failed' }
      : { status: 'mismatch', txId: query.txId, reason: `failed, not this leg's: ${call.reason}` };
  }
  const name = routerEventName(query.action, false);
  const match = matchRouterEvent(view.events, {
    type: `${packageId}::${ROUTER_MODULE}::${name}`,
    planBytes,
    owner,
    adapter: undefined,
  });
  if (match.status === 'mismatch') {
    return { status: 'mismatch', txId: query.txId, reason: match.reason };
  }
  return settle(view, query, { owner, usdc }, match.amount);
}
