import { OPEN_LEG_STATUSES, findPlan, findSettlementLeg } from '@yieldrouter/ledger';
import type { LegSettlements, PrismaClient, SettlementLeg } from '@yieldrouter/ledger';
import type { SettleLegResult, StoredPlanDocument } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { storedPlanDocument } from '../plans/storedPlanDocument';
import { recordLegOutcome } from './recordLegOutcome';
import { releasePostings } from './settlementPostings';

export interface ReleaseLegParameters {
  readonly settlements: LegSettlements;
  readonly now: Date;
}

/**
 * Releases an open leg's reservation without closing it: `expired` (unsigned past its TTL, or
 * its transaction still pending past the keeper's window) or `cancelled` (by the owner). The
 * reservation goes back (pending_in → external, pending_out → liquid) with `position.updated`;
 * the leg stays confirmable: a transaction the chain later proves is the leg's settles it from
 * where the money went back to. Returns undefined when the leg moved meanwhile (read it again).
 */
export async function releaseLeg(
  parameters: ReleaseLegParameters,
  leg: SettlementLeg,
  status: 'expired' | 'cancelled',
  reason: string,
): Promise<SettleLegResult | undefined> {
  if (!OPEN_LEG_STATUSES.some((open) => open === leg.status)) return undefined;
  const recorded = await recordLegOutcome(
    parameters,
    leg,
    { status, reason: `${status}: ${reason}`, postings: releasePostings(leg), position: null },
    { txId: leg.txId, expect: [leg.status] },
  );
  return recorded.stale ? undefined : recorded.result;
}

export interface CancelPlanParameters extends ReleaseLegParameters {
  readonly db: PrismaClient;
  readonly planId: string;
  /** The caller's wallet scope: a plan of another wallet is 403 WALLET_SCOPE. */
  readonly allowWallet: (wallet: string) => boolean;
}

const notCancellable = (planId: string, why: string) =>
  new EngineError(
    'PLAN_NOT_CANCELLABLE',
    `path.planId: plan ${planId} cannot be cancelled: ${why}`,
    'path.planId',
  );

/**
 * POST /svc/plans/{planId}/cancel (owner): cancels a prepared plan whose legs are all unsigned.
 * Each settling leg becomes `cancelled` and its reservation goes back at once. A leg that
 * carries a transaction is not cancelled (it settles from its receipt, or expires); a blocked
 * plan has nothing to cancel. Cancelling again answers the plan as it stands.
 */
export async function cancelPlan(parameters: CancelPlanParameters): Promise<StoredPlanDocument> {
  const { db, planId } = parameters;
  const plan = await findPlan(db, planId);
  if (!plan)
    throw new EngineError('PLAN_NOT_FOUND', `path.planId: no plan ${planId}`, 'path.planId');
  if (!plan.wallet || !parameters.allowWallet(plan.wallet)) {
    throw new EngineError(
      'WALLET_SCOPE',
      `path.planId: plan ${planId} belongs to a wallet this key is not allowed for`,
      'path.planId',
    );
  }
  if (plan.status !== 'prepared')
    throw notCancellable(planId, 'it is blocked; nothing was reserved');
  const settling = plan.legs.filter((leg) => leg.effect !== 'none');
  const moving = settling.find((leg) => leg.status !== 'unsigned' && leg.status !== 'cancelled');
  if (moving) {
    throw notCancellable(
      planId,
      `leg ${moving.legIndex} is ${moving.status}${moving.txId ? ` with ${moving.txId}` : ''}`,
    );
  }
  for (const stored of settling.filter((leg) => leg.status === 'unsigned')) {
    const leg = await findSettlementLeg(db, planId, stored.legIndex);
    if (!leg) continue;
    const released = await releaseLeg(parameters, leg, 'cancelled', 'by the owner');
    if (!released) return cancelPlan(parameters);
  }
  const after = await findPlan(db, planId);
  return storedPlanDocument(after ?? plan);
}
