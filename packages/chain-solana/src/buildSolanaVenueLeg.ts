import type { PublicKey } from '@solana/web3.js';
import { USDC_DECIMALS, formatUnits } from '@yieldrouter/schemas';
import type { LegBuild, VenueOnChain } from '@yieldrouter/schemas';
import { planMemoInstruction } from './instructions/planMemo';
import {
  depositToVenueInstruction,
  withdrawFromVenueInstruction,
} from './instructions/routerInstructions';
import { venueKeys } from './legKeys';
import { prepareSolanaLeg } from './prepareSolanaLeg';
import { readRouterFeeConfig } from './readRouterFeeConfig';
import { associatedTokenAccount } from './tokenAccounts';
import type { SolanaContext } from './solanaContext';

/** A venue leg's request, its owner parsed. */
export interface BuildSolanaVenueLegParameters {
  readonly action: 'deposit' | 'withdraw';
  readonly owner: PublicKey;
  readonly planId: string;
  readonly amountMicros: bigint;
  readonly venue: VenueOnChain;
}

/**
 * An unsigned venue leg (v0, fee payer = owner): the protocol's setup (the owner's token
 * accounts, a reserve refresh…), the router program's `deposit_to_venue` / `withdraw_from_venue`
 * carrying the protocol's accounts, and the memo `svc:<planId>`. The venue's protocol
 * (`SOLANA_VENUE_PROTOCOLS`) says which accounts and which argument; a missing id blocks the leg
 * naming it.
 */
export async function buildSolanaVenueLeg(
  context: SolanaContext,
  leg: BuildSolanaVenueLegParameters,
): Promise<LegBuild> {
  const { action, owner, planId, amountMicros, venue } = leg;
  const resolved = venueKeys(context.config, venue);
  if (resolved.status === 'blocked') return resolved;
  const { router, protocol, ids } = resolved;
  const call = await protocol.buildCall({
    context,
    action,
    owner,
    amountMicros,
    usdcMint: router.usdcMint,
    ids,
  });
  if ('blockers' in call) return { status: 'blocked', blockers: call.blockers };
  // The treasury the registry names (the router refuses any other account for the skim).
  const fees = await readRouterFeeConfig(context, router.adapterRegistry);
  if ('blockers' in fees) return { status: 'blocked', blockers: fees.blockers };
  const accounts = {
    programId: router.programId,
    owner,
    yieldRouter: router.yieldRouter,
    adapterRegistry: router.adapterRegistry,
    adapter: call.adapter,
    venueProgram: call.venueProgram,
    treasuryUsdc: associatedTokenAccount(fees.treasury, router.usdcMint),
    venueAccounts: call.venueAccounts,
  };
  const args = { amountMicros: call.argument, planId };
  const amount = `${formatUnits(amountMicros, USDC_DECIMALS)} USDC`;
  return prepareSolanaLeg(context, {
    owner,
    action,
    planId,
    amountMicros,
    summary:
      action === 'deposit'
        ? `Deposit ${amount} from ${owner.toBase58()} into ${venue.venueId} (${protocol.name}) through the Yield Router (${planId})`
        : `Withdraw ${amount} from ${venue.venueId} (${protocol.name}) through the Yield Router to ${owner.toBase58()}, the router paying its ${fees.skimBps} bps yield skim to the treasury ${fees.treasury.toBase58()} (${planId})`,
    instructions: [
      ...call.setup,
      action === 'deposit'
        ? depositToVenueInstruction(accounts, args)
        : withdrawFromVenueInstruction(accounts, args),
      planMemoInstruction(planId),
    ],
  });
}
