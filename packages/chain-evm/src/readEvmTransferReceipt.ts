import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { Receipt, TransferReceiptQuery } from '@yieldrouter/schemas';
import { isAddressEqual } from 'viem';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { parseLegReceiptQuery } from './parseLegReceiptQuery';
import { readMinedLeg } from './readMinedLeg';
import { sumTransfers } from './sumTransfers';

export type ReadEvmTransferReceiptParameters = TransferReceiptQuery;

/**
 * What the chain says about a transfer leg's transaction, checked before any amount is
 * believed: sent by the owner, to the USDC contract, calldata tagged with the plan. The amount
 * is the sum of the USDC Transfer logs from the owner to `recipient` (never the quote); none →
 * `mismatch`. Unknown → `pending`; reverted → `failed`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, recipient or planId.
 * @example
 * await readEvmTransferReceipt(context, { txId, planId, owner, recipient })
 * // { status: 'confirmed', amountMicros: 1_250_000n, shares: null, … }
 */
export async function readEvmTransferReceipt(
  context: EvmContext,
  query: ReadEvmTransferReceiptParameters,
): Promise<Receipt> {
  const { txId, owner } = parseLegReceiptQuery(query);
  const recipient = normalizeEvmAddress(query.recipient);
  if (!recipient) {
    throw new InvalidChainInputError('recipient', 'recipient: must be 0x + 40 hex');
  }
  const what = `receipt of ${txId} on ${context.label}`;
  const usdc = context.usdc;
  if (!usdc) {
    return {
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: `${what}: no USDC address is configured, so the transfer cannot be read`,
    };
  }
  return readMinedLeg(context, { txId, owner, planId: query.planId, to: usdc }, (receipt) => {
    const amountMicros = sumTransfers(
      receipt.logs,
      usdc,
      (from, to) => isAddressEqual(from, owner) && isAddressEqual(to, recipient),
    );
    if (amountMicros === 0n) {
      return { status: 'mismatch' as const, txId, reason: `it sent no USDC to ${recipient}` };
    }
    return {
      status: 'confirmed' as const,
      txId,
      planId: query.planId,
      amountMicros,
      shares: null,
      block: receipt.blockNumber.toString(10),
    };
  });
}
