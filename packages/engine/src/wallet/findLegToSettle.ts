import type { LegToSettle, SettlementLeg, TxClaim } from '@yieldrouter/ledger';
import type { Chain, LegTarget, VenueStandard } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import type { SettleLegParameters } from './settleLeg';

// Which leg a settlement call is about, whether the caller may settle it, and which other leg
// holds its transaction id.

/** The leg's target as the adapter knows it (the router, or the venue with its on-chain ids). */
export function targetOf(leg: SettlementLeg, venues: VenueConfig): LegTarget {
  if (!leg.venueId) return { kind: 'router' };
  return {
    kind: 'venue',
    venue: venueOnChain(venues, {
      venueId: leg.venueId,
      chain: leg.chain as Chain,
      standard: leg.standard as VenueStandard,
    }),
  };
}

export async function loadLeg(parameters: SettleLegParameters): Promise<LegToSettle> {
  const found = await parameters.db.settlements.find({
    planId: parameters.planId,
    legIndex: parameters.legIndex,
    txId: parameters.txId,
  });
  if (!found) {
    throw new EngineError(
      'NOT_FOUND',
      `path.legIndex: plan ${parameters.planId} has no leg ${parameters.legIndex}`,
      'path.legIndex',
    );
  }
  const { leg } = found;
  if (leg.wallet && parameters.allowWallet && !parameters.allowWallet(leg.wallet)) {
    throw new EngineError(
      'WALLET_SCOPE',
      `path.planId: plan ${leg.planId} belongs to a wallet this key is not allowed for`,
      'path.planId',
    );
  }
  if (leg.effect === 'none' || !leg.wallet || !leg.owner) {
    throw new EngineError(
      'BAD_REQUEST',
      `path.legIndex: leg ${leg.legIndex} (${leg.action}) moves no money; settle the plan's settling leg`,
      'path.legIndex',
    );
  }
  return found;
}

/** Another leg than `leg` that holds the transaction id, if any. */
export function otherClaim(leg: SettlementLeg, claim: TxClaim | undefined): TxClaim | undefined {
  return claim && (claim.planId !== leg.planId || claim.legIndex !== leg.legIndex)
    ? claim
    : undefined;
}

export const conflict = (txId: string, claim: TxClaim, why: string) =>
  new EngineError(
    'SETTLEMENT_CONFLICT',
    `body.txId: ${txId} ${why} plan ${claim.planId} leg ${claim.legIndex}`,
    'body.txId',
  );
