import { InvalidChainInputError, MAX_MICROS, isPlanId } from '@yieldrouter/schemas';
import type { UnsignedLeg, UnwrapLegRequest } from '@yieldrouter/schemas';
import { encodeFunctionData, parseAbi } from 'viem';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { normalizeEvmAddress } from './normalizeEvmAddress';

export type BuildEvmUnwrapParameters = UnwrapLegRequest;

const wrappedNativeAbi = parseAbi(['function withdraw(uint256 wad)', 'function deposit() payable']);

/**
 * The unsigned leg that turns wrapped native into native gas: `WETH.withdraw(amount)` from the
 * owner, tagged with the plan. It settles from its receipt (the wrapped native out, native in:
 * the books' per-asset accounts), its amount in wei.
 *
 * @throws InvalidChainInputError for a bad owner, token, amount or planId.
 * @example
 * buildEvmUnwrap(context, { planId, owner, wrappedNative: weth, amount: 10n ** 15n, summary })
 */
export function buildEvmUnwrap(
  context: EvmContext,
  parameters: BuildEvmUnwrapParameters,
  /**
   * `wrap` (issue 41): the leg before a swap from ETH instead: `WETH.deposit()` paying `amount`
   * wei (native out, the wrapped native in).
   */
  action: 'wrap' | 'unwrap' = 'unwrap',
): UnsignedLeg {
  const owner = normalizeEvmAddress(parameters.owner);
  const token = normalizeEvmAddress(parameters.wrappedNative);
  if (!owner || !token) {
    throw new InvalidChainInputError('owner', 'owner, wrappedNative: must be EVM addresses');
  }
  if (!isPlanId(parameters.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  if (parameters.amount <= 0n || parameters.amount > MAX_MICROS) {
    throw new InvalidChainInputError('amount', 'amount: must be > 0 and <= 2^63 - 1');
  }
  return evmLeg(context, { planId: parameters.planId, amountMicros: parameters.amount }, owner, {
    action,
    to: token,
    call:
      action === 'wrap'
        ? encodeFunctionData({ abi: wrappedNativeAbi, functionName: 'deposit' })
        : encodeFunctionData({
            abi: wrappedNativeAbi,
            functionName: 'withdraw',
            args: [parameters.amount],
          }),
    summary: parameters.summary,
    ...(action === 'wrap' ? { value: parameters.amount } : {}),
  });
}
