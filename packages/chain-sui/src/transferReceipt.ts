import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest, normalizeStructTag } from '@mysten/sui/utils';
import type { Receipt, TransferReceiptQuery } from '@yieldrouter/schemas';
import {
  formatUnits,
  InvalidChainInputError,
  planIdToBytes,
  USDC_DECIMALS,
} from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import { fetchTransactionView } from './fetchTransactionView';
import { ownerBalanceChange } from './ownerBalanceChange';
import { rpcNotConfigured, usdcNotConfigured } from './rpc';
import { matchWalletProof } from './wallet/walletProof';

/**
 * What the chain says about a transfer leg (`sui_getTransactionBlock`: input, effects status,
 * balance changes), checked before any amount is believed: sent by the owner, carrying this
 * plan's id as a `vector<u8>` pure input, calling no Move function outside the Sui framework
 * (`matchWalletProof`, as a wallet leg). Only then does a failed transaction fail the leg;
 * any other is a mismatch. The amount is what the chain's `balanceChanges` show the recipient's
 * address gained in USDC, and the owner's must have lost exactly as much (no other USDC
 * movement hides in it); nothing to the recipient → mismatch. Never the quote. Not found →
 * pending; no RPC, a failed or unreadable answer → `unavailable` (fail closed).
 *
 * @throws InvalidChainInputError for a malformed txId, owner, recipient or planId.
 * @example
 * await readSuiTransferReceipt(client, config, { txId, planId, owner, recipient })
 * // { status: 'confirmed', txId, planId, amountMicros: 1_250_000n, shares: null, block: '4242' }
 */
export async function readSuiTransferReceipt(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  query: TransferReceiptQuery,
): Promise<Receipt> {
  const { txId } = query;
  if (!isValidTransactionDigest(txId)) {
    throw new InvalidChainInputError('txId', 'txId: must be a base58 Sui transaction digest');
  }
  const owner = requireSuiAddress('owner', query.owner);
  const recipient = requireSuiAddress('recipient', query.recipient);
  const planBytes = planIdToBytes(query.planId);
  const usdc = config.usdcCoinType;
  if (usdc === undefined) return usdcNotConfigured('transfer receipt');
  if (!client) return rpcNotConfigured('transfer receipt');
  const fetched = await fetchTransactionView(client, txId, 'transfer receipt', () => true);
  if ('answer' in fetched) return fetched.answer;
  const { view } = fetched;
  if (!view.input) return { status: 'mismatch', txId, reason: 'the transaction shows no input' };
  const match = matchWalletProof(view.input, { owner, planBytes });
  if (view.status === 'failure') {
    return match.status === 'matched'
      ? { status: 'failed', txId, reason: view.error ?? 'execution failed' }
      : { status: 'mismatch', txId, reason: `failed, not this leg's: ${match.reason}` };
  }
  if (match.status === 'mismatch') return { status: 'mismatch', txId, reason: match.reason };

  const coinType = normalizeStructTag(usdc);
  const received = ownerBalanceChange(view, recipient, coinType) ?? 0n;
  const sent = -(ownerBalanceChange(view, owner, coinType) ?? 0n);
  if (received <= 0n) {
    return { status: 'mismatch', txId, reason: `no USDC reached ${recipient}` };
  }
  if (sent !== received) {
    return {
      status: 'mismatch',
      txId,
      reason: `${formatUnits(received, USDC_DECIMALS)} USDC reached the recipient but the owner's USDC changed by ${formatUnits(-sent, USDC_DECIMALS)} USDC`,
    };
  }
  return {
    status: 'confirmed',
    txId,
    planId: query.planId,
    amountMicros: received,
    shares: null,
    block: view.checkpoint,
  };
}
