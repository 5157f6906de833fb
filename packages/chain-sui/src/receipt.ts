import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest } from '@mysten/sui/utils';
import type { Receipt, ReceiptQuery } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import { readVenueReceipt } from './venues/readVenueReceipt';
import { resolveSuiVenue } from './venues/suiVenue';
import { readWalletReceipt } from './wallet/readWalletReceipt';

function unavailable(reason: 'asset_not_configured' | 'no_standard_reader', detail: string) {
  return { status: 'unavailable', reason, detail } as const;
}

/**
 * What the chain says about a leg, checked against the plan before any amount is believed.
 * Not found → pending. A venue leg (`readVenueReceipt`) needs the transaction to call the venue's
 * function with this plan id, the protocol's event and the owner's balance changes agreeing; a
 * wallet leg (target `router`, `readWalletReceipt`) needs the owner's own transaction with this
 * plan id, calling no package, and counts the USDC coins it created for the owner. A failed
 * transaction fails the leg only when its input proves it is the leg's own; any other is a
 * mismatch. Amounts and shares never come from the caller.
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
  const usdc = config.usdcCoinType;
  if (usdc === undefined) {
    return unavailable('asset_not_configured', 'receipt: the USDC coin type is not configured');
  }
  if (query.target.kind === 'router') {
    return readWalletReceipt(client, query, { usdc, owner, planBytes });
  }
  const resolved = resolveSuiVenue(query.target.venue, usdc);
  if (resolved.status === 'blocked') {
    const why = resolved.blockers.map((blocker) => blocker.message).join(' ');
    return unavailable('no_standard_reader', `receipt: ${why}`);
  }
  return readVenueReceipt(client, query, { venue: resolved.venue, usdc, owner, planBytes });
}
