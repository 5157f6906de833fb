import { USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import type { LegBuild, LegRequest } from '@yieldrouter/schemas';
import { encodeFunctionData } from 'viem';
import { aaveV3PoolAbi, erc20Abi, erc4626Abi } from './abis';
import { routerBlocker, usdcBlocker } from './blockers';
import { checkLegRequest } from './checkLegRequest';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { resolveVenueTarget } from './resolveVenueTarget';

/**
 * Unsigned legs that move `amountMicros` USDC from the owner into a venue. Offline: no RPC.
 * - erc4626: `USDC.approve(vault, amount)`, then `vault.deposit(amount, owner)`;
 * - aave-v3: `USDC.approve(pool, amount)`, then `pool.supply(USDC, amount, owner, 0)`.
 * Each leg's calldata ends with the plan tag. The router is never a target on EVM (blocked).
 *
 * @throws InvalidChainInputError for a bad amount, owner, planId or a venue of another chain.
 * @example
 * await buildEvmDeposit(context, { planId, owner, amountMicros: 12_500_000n, target })
 * // { status: 'prepared', legs: [approve, deposit] }
 */
export async function buildEvmDeposit(context: EvmContext, request: LegRequest): Promise<LegBuild> {
  const owner = checkLegRequest(context, request);
  if (request.target.kind === 'router') {
    return { status: 'blocked', blockers: [routerBlocker(context)] };
  }
  const venue = request.target.venue;
  const resolved = await resolveVenueTarget(context, venue);
  const usdc = context.usdc;
  if (resolved.status === 'blocked' || !usdc) {
    return {
      status: 'blocked',
      blockers: [
        ...(resolved.status === 'blocked' ? resolved.blockers : []),
        ...(usdc ? [] : [usdcBlocker(context)]),
      ],
    };
  }
  const amount = request.amountMicros;
  const shown = `${formatUnits(amount, USDC_DECIMALS)} USDC`;
  const where = `(venue ${venue.venueId}) on ${context.label}`;
  const target = resolved.target;
  const spender = target.standard === 'erc4626' ? target.vault : target.pool;
  const spenderName = target.standard === 'erc4626' ? 'vault' : 'Aave v3 pool';
  const approve = evmLeg(context, request, owner, {
    action: 'approve',
    to: usdc,
    call: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
    summary: `Approve ${spenderName} ${spender} to take ${shown} ${where}`,
  });
  const deposit =
    target.standard === 'erc4626'
      ? evmLeg(context, request, owner, {
          action: 'deposit',
          to: target.vault,
          call: encodeFunctionData({
            abi: erc4626Abi,
            functionName: 'deposit',
            args: [amount, owner],
          }),
          summary: `Deposit ${shown} into vault ${target.vault} ${where}`,
        })
      : evmLeg(context, request, owner, {
          action: 'deposit',
          to: target.pool,
          call: encodeFunctionData({
            abi: aaveV3PoolAbi,
            functionName: 'supply',
            args: [usdc, amount, owner, 0],
          }),
          summary: `Supply ${shown} to Aave v3 pool ${target.pool} ${where}`,
        });
  return { status: 'prepared', legs: [approve, deposit] };
}
