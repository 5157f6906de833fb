import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest, normalizeStructTag } from '@mysten/sui/utils';
import type { Receipt, ReceiptQuery } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { normalizeSuiOwner, requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import { SuiBadResponseError } from './errors';
import { matchRouterEvent } from './events';
import { isTransactionNotFound, rpcNotConfigured, suiRpcFailure } from './rpc';
import { ROUTER_MODULE, routerEventName } from './router';
import type { TransactionView } from './shapes';
import { readTransaction } from './shapes';

function unavailable(reason: 'asset_not_configured' | 'no_standard_reader', detail: string) {
  return { status: 'unavailable', reason, detail } as const;
}

/** The venue adapter a receipt must name, or why we cannot check it. */
function expectedAdapter(query: ReceiptQuery): { adapter: string | undefined } | string {
  if (query.target.kind !== 'venue') return { adapter: undefined };
  const { venue } = query.target;
  const raw = venue.standard === 'router-adapter' ? venue.ids.adapter : undefined;
  const adapter = raw === undefined ? undefined : normalizeSuiOwner(raw);
  return adapter === undefined
    ? `venue ${venue.venueId} has no Sui router-adapter ids.adapter`
    : { adapter };
}

/** The owner's net USDC change in the transaction (signed). */
function ownerUsdcChange(view: TransactionView, owner: string, usdc: string): bigint | undefined {
  let total: bigint | undefined;
  for (const change of view.balanceChanges) {
    if (change.owner === undefined || normalizeSuiOwner(change.owner) !== owner) continue;
    let coinType: string;
    try {
      coinType = normalizeStructTag(change.coinType);
    } catch {
      continue;
    }
    if (coinType === usdc) total = (total ?? 0n) + change.amount;
  }
  return total;
}

function settle(
  view: TransactionView,
  query: ReceiptQuery,
  owner: string,
  usdc: string,
  eventAmount: bigint,
): Receipt {
  const change = ownerUsdcChange(view, owner, usdc);
  const txId = query.txId;
  const sign = query.action === 'deposit' ? -1n : 1n;
  if (change === undefined || change * sign <= 0n) {
    const moved = query.action === 'deposit' ? 'left' : 'reached';
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
    // Venue legs: the adapter issues receipt coins 1:1 with the USDC it takes.
    shares: query.target.kind === 'venue' ? amount : null,
    block: view.checkpoint,
  };
}

/**
 * What the chain says about a leg. Not found → pending; effects failure → failed; no router
 * event for (plan, owner[, adapter]) or a USDC balance change that disagrees with it → mismatch.
 * The amount comes from the owner's USDC balance change, never from the caller.
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
  if (config.packageId === undefined) {
    return unavailable(
      'no_standard_reader',
      'receipt: the Sui router package id is not configured',
    );
  }
  if (config.usdcCoinType === undefined) {
    return unavailable('asset_not_configured', 'receipt: the USDC coin type is not configured');
  }
  const adapter = expectedAdapter(query);
  if (typeof adapter === 'string') return unavailable('no_standard_reader', `receipt: ${adapter}`);
  if (!client) return rpcNotConfigured('receipt');

  let view: TransactionView;
  try {
    const response = await client.getTransactionBlock({
      digest: query.txId,
      options: { showEffects: true, showEvents: true, showBalanceChanges: true },
    });
    view = readTransaction(response);
    if (view.digest !== query.txId) {
      throw new SuiBadResponseError('receipt: the RPC answered for another transaction');
    }
  } catch (error) {
    if (isTransactionNotFound(error, query.txId)) return { status: 'pending', txId: query.txId };
    return suiRpcFailure(error, 'receipt');
  }
  if (view.status === 'failure') {
    return { status: 'failed', txId: query.txId, reason: view.error ?? 'execution failed' };
  }
  const name = routerEventName(query.action, query.target.kind === 'venue');
  const match = matchRouterEvent(view.events, {
    type: `${config.packageId}::${ROUTER_MODULE}::${name}`,
    planBytes,
    owner,
    adapter: adapter.adapter,
  });
  if (match.status === 'mismatch') {
    return { status: 'mismatch', txId: query.txId, reason: match.reason };
  }
  return settle(view, query, owner, config.usdcCoinType, match.amount);
}
