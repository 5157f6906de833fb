import { InvalidChainInputError, MAX_MICROS, isPlanId } from '@yieldrouter/schemas';
import type { SwapLegRequest, UnsignedLeg } from '@yieldrouter/schemas';
import { encodeFunctionData } from 'viem';
import type { Hex } from 'viem';
import { erc20Abi } from './abis';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { normalizeEvmAddress } from './normalizeEvmAddress';

export type BuildEvmSwapParameters = SwapLegRequest;

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
  const inputToken = normalizeEvmAddress(parameters.inputToken);
  const spender = normalizeEvmAddress(parameters.spender);
  const to = normalizeEvmAddress(parameters.call.to);
  if (!inputToken || !spender || !to) {
    throw new InvalidChainInputError(
      'spender',
      'inputToken, spender, call.to: must be EVM addresses',
    );
  }
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(parameters.call.data)) {
    throw new InvalidChainInputError('call.data', 'call.data: must be 0x-prefixed hex bytes');
  }
  const request = { planId: parameters.planId, amountMicros: amountInMicros };
  const legs: UnsignedLeg[] = [];
  if (parameters.allowance < amountInMicros) {
    legs.push(
      evmLeg(context, request, owner, {
        action: 'approve',
        to: inputToken,
        call: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [spender, amountInMicros],
        }),
        summary: parameters.summaries.approve,
      }),
    );
  }
  legs.push(
    evmLeg(context, request, owner, {
      action: 'swap',
      to,
      call: parameters.call.data as Hex,
      summary: parameters.summaries.swap,
    }),
  );
  return legs;
}
