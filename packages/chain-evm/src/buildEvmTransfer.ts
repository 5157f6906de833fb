import { InvalidChainInputError, USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import type { LegBuild, TransferLegRequest } from '@yieldrouter/schemas';
import { encodeFunctionData } from 'viem';
import { erc20Abi } from './abis';
import { usdcBlocker } from './blockers';
import { checkLegRequest } from './checkLegRequest';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { normalizeEvmAddress } from './normalizeEvmAddress';

export type BuildEvmTransferParameters = TransferLegRequest;

/**
 * One unsigned leg in which the owner sends `amountMicros` USDC to `recipient`: an ERC-20
 * `transfer(recipient, amount)` on the configured USDC, calldata ending with the plan tag (the
 * token ignores trailing bytes). Offline. No USDC configured → blocked `asset_not_configured`.
 *
 * @throws InvalidChainInputError for a bad amount, owner, recipient or planId.
 * @example
 * await buildEvmTransfer(context, { planId, owner, recipient, amountMicros: 1_250_000n })
 * // { status: 'prepared', legs: [transfer] }
 */
export async function buildEvmTransfer(
  context: EvmContext,
  request: BuildEvmTransferParameters,
): Promise<LegBuild> {
  const owner = checkLegRequest(context, { ...request, target: { kind: 'router' } });
  const recipient = normalizeEvmAddress(request.recipient);
  if (!recipient) {
    throw new InvalidChainInputError(
      'recipient',
      'recipient: must be 0x + 40 hex (EIP-55 if mixed case)',
    );
  }
  const usdc = context.usdc;
  if (!usdc) return { status: 'blocked', blockers: [usdcBlocker(context)] };
  const leg = evmLeg(context, request, owner, {
    action: 'transfer',
    to: usdc,
    call: encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient, request.amountMicros],
    }),
    summary: `Send ${formatUnits(request.amountMicros, USDC_DECIMALS)} USDC to ${recipient} on ${context.label}`,
  });
  return { status: 'prepared', legs: [leg] };
}
