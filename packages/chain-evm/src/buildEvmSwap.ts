import { InvalidChainInputError, MAX_MICROS, isPlanId } from '@yieldrouter/schemas';
import type { UnsignedLeg } from '@yieldrouter/schemas';
import { encodeFunctionData } from 'viem';
import type { Address, Hex } from 'viem';
import { erc20Abi } from './abis';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { normalizeEvmAddress } from './normalizeEvmAddress';

export interface BuildEvmSwapParameters {
  readonly planId: string;
  readonly owner: string;
  /** The ERC-20 the owner sells, and how much of it (base units). */
  readonly inputToken: Address;
  readonly amountInMicros: bigint;
  /** What the owner already allows `spender` (read on chain); an approval leg tops it up. */
  readonly allowance: bigint;
  /** The contract the quote says must be allowed to take the input (0x: `allowanceTarget`). */
  readonly spender: Address;
  /** The swap call the quote built (0x: `transaction.to` / `transaction.data`). */
  readonly call: { readonly to: Address; readonly data: Hex };
  readonly summaries: { readonly approve: string; readonly swap: string };
}

/**
 * The unsigned legs of a quoted swap: `inputToken.approve(spender, amountIn)` when the allowance
 * is short, then the quote's call, both from the owner with no value and tagged with the plan.
 * Only the swap leg settles. Offline: the allowance is read by the caller.
 *
 * @throws InvalidChainInputError for a bad amount, owner or planId.
 * @example
 * buildEvmSwap(context, { planId, owner, inputToken: usdc, amountInMicros: 10_000_000n,
 *   allowance: 0n, spender, call: { to, data }, summaries }) // [approve, swap]
 */
export function buildEvmSwap(
  context: EvmContext,
  parameters: BuildEvmSwapParameters,
): UnsignedLeg[] {
  const { amountInMicros } = parameters;
  if (amountInMicros <= 0n || amountInMicros > MAX_MICROS) {
    throw new InvalidChainInputError(
      'amountInMicros',
      'amountInMicros: must be > 0 and <= 2^63 - 1',
    );
  }
  const owner = normalizeEvmAddress(parameters.owner);
  if (!owner) {
    throw new InvalidChainInputError('owner', 'owner: must be 0x + 40 hex (EIP-55 if mixed case)');
  }
  if (!isPlanId(parameters.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  const request = { planId: parameters.planId, amountMicros: amountInMicros };
  const legs: UnsignedLeg[] = [];
  if (parameters.allowance < amountInMicros) {
    legs.push(
      evmLeg(context, request, owner, {
        action: 'approve',
        to: parameters.inputToken,
        call: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [parameters.spender, amountInMicros],
        }),
        summary: parameters.summaries.approve,
      }),
    );
  }
  legs.push(
    evmLeg(context, request, owner, {
      action: 'swap',
      to: parameters.call.to,
      call: parameters.call.data,
      summary: parameters.summaries.swap,
    }),
  );
  return legs;
}
