import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { SwapReceipt, SwapReceiptQuery } from '@yieldrouter/schemas';
import { isAddressEqual } from 'viem';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { parseLegReceiptQuery } from './parseLegReceiptQuery';
import { readMinedLeg } from './readMinedLeg';
import { sumTransfers } from './sumTransfers';

export type ReadEvmSwapReceiptParameters = SwapReceiptQuery;

/**
 * What the chain says about a swap leg's transaction, checked against the plan before any
 * amount is believed: sent by the owner, to the quoted contract, calldata tagged with the plan.
 * Amounts come from the ERC-20 Transfer logs: the output token paid to the owner (amount out)
 * and the input token the owner sent (amount in). Unknown → `pending`; not the leg's →
 * `mismatch`; reverted, or a fill below `minAmountOutMicros` → `failed`; else `confirmed`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner or planId.
 * @example
 * await readEvmSwapReceipt(context, { txId, planId, owner, to, inputToken, outputToken, minAmountOutMicros })
 * // { status: 'confirmed', amountInMicros: 10_000_000n, amountOutMicros: 3_290_000_000_000_000n, … }
 */
export async function readEvmSwapReceipt(
  context: EvmContext,
  query: ReadEvmSwapReceiptParameters,
): Promise<SwapReceipt> {
  const { txId, owner } = parseLegReceiptQuery(query);
  const to = normalizeEvmAddress(query.to);
  const inputToken = normalizeEvmAddress(query.inputToken);
  const outputToken = normalizeEvmAddress(query.outputToken);
  const feeRecipient = query.feeRecipient === null ? null : normalizeEvmAddress(query.feeRecipient);
  if (!to || !inputToken || !outputToken || feeRecipient === undefined) {
    throw new InvalidChainInputError(
      'to',
      'to, inputToken, outputToken, feeRecipient: must be EVM addresses',
    );
  }
  return readMinedLeg(context, { txId, owner, planId: query.planId, to }, (receipt) => {
    const amountOutMicros = sumTransfers(receipt.logs, outputToken, (_from, to) =>
      isAddressEqual(to, owner),
    );
    const amountInMicros = sumTransfers(receipt.logs, inputToken, (from) =>
      isAddressEqual(from, owner),
    );
    const feePaidMicros = feeRecipient
      ? sumTransfers(
          receipt.logs,
          inputToken,
          (from, recipient) =>
            isAddressEqual(from, owner) && isAddressEqual(recipient, feeRecipient),
        )
      : 0n;
    if (amountOutMicros < query.minAmountOutMicros) {
      return {
        status: 'failed' as const,
        txId,
        reason: `filled ${amountOutMicros} below the minimum ${query.minAmountOutMicros}`,
      };
    }
    return {
      status: 'confirmed' as const,
      txId,
      amountInMicros,
      amountOutMicros,
      feePaidMicros,
      block: receipt.blockNumber.toString(10),
    };
  });
}
