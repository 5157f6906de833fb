import { USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { Blocker, LegBuild, LegRequest, UnsignedLeg } from '@yieldrouter/schemas';
import { encodeFunctionData } from 'viem';
import { aaveV3PoolAbi, erc4626Abi } from './abis';
import { routerBlocker, usdcBlocker } from './blockers';
import { buildEvmTransfer } from './buildEvmTransfer';
import { checkLegRequest } from './checkLegRequest';
import type { EvmContext } from './evmContext';
import { evmLeg } from './evmLeg';
import { resolveVenueTarget } from './resolveVenueTarget';

/**
 * One unsigned leg that moves `amountMicros` USDC out of a venue back to the owner. Offline.
 * - erc4626: `vault.withdraw(amount, owner, owner)` (USDC need not be configured);
 * - aave-v3: `pool.withdraw(USDC, amount, owner)`.
 * The calldata ends with the plan tag. The router is never a target on EVM (blocked).
 * With `request.skim` (the owner holds the receipts), a second leg sends the skim of what the
 * venue paid to the treasury: a USDC `transfer(treasury, skim)` tagged with the same plan.
 *
 * @throws InvalidChainInputError for a bad amount, owner, planId or a venue of another chain.
 * @example
 * await buildEvmWithdraw(context, { planId, owner, amountMicros: 5_000_000n, target })
 * // { status: 'prepared', legs: [withdraw] }
 */
export async function buildEvmWithdraw(
  context: EvmContext,
  request: LegRequest,
): Promise<LegBuild> {
  const owner = checkLegRequest(context, request);
  if (request.target.kind === 'router') {
    return { status: 'blocked', blockers: [routerBlocker(context)] };
  }
  const venue = request.target.venue;
  const resolved = await resolveVenueTarget(context, venue);
  const blockers: Blocker[] = resolved.status === 'blocked' ? [...resolved.blockers] : [];
  if (venue.standard === 'aave-v3' && !context.usdc) blockers.push(usdcBlocker(context));
  if (resolved.status === 'blocked' || blockers.length > 0) return { status: 'blocked', blockers };

  const amount = request.amountMicros;
  const shown = `${formatUnits(amount, USDC_DECIMALS)} USDC`;
  const where = `(venue ${venue.venueId}) on ${context.label}`;
  const target = resolved.target;
  if (target.standard === 'erc4626') {
    const leg = evmLeg(context, request, owner, {
      action: 'withdraw',
      to: target.vault,
      call: encodeFunctionData({
        abi: erc4626Abi,
        functionName: 'withdraw',
        args: [amount, owner, owner],
      }),
      summary: `Withdraw ${shown} from vault ${target.vault} ${where}`,
    });
    return withSkimLeg(context, request, leg);
  }
  const usdc = context.usdc;
  if (!usdc) return { status: 'blocked', blockers: [usdcBlocker(context)] };
  const leg = evmLeg(context, request, owner, {
    action: 'withdraw',
    to: target.pool,
    call: encodeFunctionData({
      abi: aaveV3PoolAbi,
      functionName: 'withdraw',
      args: [usdc, amount, owner],
    }),
    summary: `Withdraw ${shown} from Aave v3 pool ${target.pool} ${where}`,
  });
  return withSkimLeg(context, request, leg);
}

/** The withdrawal, then its skim to the treasury when the request carries one. */
async function withSkimLeg(
  context: EvmContext,
  request: LegRequest,
  withdraw: UnsignedLeg,
): Promise<LegBuild> {
  const skim = request.skim;
  if (!skim || skim.amountMicros === 0n) return { status: 'prepared', legs: [withdraw] };
  if (skim.amountMicros < 0n || skim.amountMicros > request.amountMicros) {
    throw new InvalidChainInputError(
      'skim.amountMicros',
      'skim.amountMicros: must be between 0 and the amount withdrawn',
    );
  }
  const transfer = await buildEvmTransfer(context, {
    planId: request.planId,
    owner: request.owner,
    recipient: skim.recipient,
    amountMicros: skim.amountMicros,
  });
  if (transfer.status === 'blocked') return transfer;
  return { status: 'prepared', legs: [withdraw, ...transfer.legs] };
}
