import type { Keypair } from '@solana/web3.js';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter, LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import { onlyLeg, signLeg } from './bedAdapter';

/**
 * One venue leg end to end on a bed: the adapter builds it, the owner signs, the adapter
 * broadcasts, and the receipt is read back as the keeper's settlement reads it.
 *
 * @example
 * const deposit = await routedVenueRun(adapter, venue, owner, 'deposit', 20_000_000n);
 */
export async function routedVenueRun(
  adapter: ChainAdapter,
  venue: VenueOnChain,
  owner: Keypair,
  action: 'deposit' | 'withdraw',
  amountMicros: bigint,
) {
  const request: LegRequest = {
    planId: newPlanId(),
    owner: owner.publicKey.toBase58(),
    amountMicros,
    target: { kind: 'venue', venue },
  };
  const build =
    action === 'deposit'
      ? await adapter.buildDeposit(request)
      : await adapter.buildWithdraw(request);
  const submitted = await adapter.broadcast({ transaction: signLeg(onlyLeg(build), owner) });
  if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
  const receipt = await adapter.readReceipt({
    txId: submitted.txId,
    planId: request.planId,
    owner: request.owner,
    action,
    target: request.target,
  });
  return { receipt, planId: request.planId, txId: submitted.txId };
}
