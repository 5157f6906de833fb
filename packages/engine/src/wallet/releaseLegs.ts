import { OPEN_LEG_STATUSES, findPlan, findSettlementLeg } from '@yieldrouter/ledger';
import type { Books, SettlementLeg, StoredPlan, WriteRecorder } from '@yieldrouter/ledger';
import type { SettleLegResult, StoredPlanDocument } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { storedPlanDocument } from '../plan/storedPlanDocument';
import { recordedWrite } from '../recordedWrite';
import { recordLegOutcome } from './recordLegOutcome';
import { releaseBooking } from './releaseBooking';

export interface ReleaseLegParameters {
  /** Its settlements: grouped with concurrent ones on the open books, or a transaction's. */
  readonly db: Pick<Books, 'settlements'>;
  readonly now: Date;
}

/**
 * Releases an open leg's reservation without closing it: `expired` (unsigned past its TTL, or
 * its transaction still pending past the keeper's window) or `cancelled` (by the owner). The
 * reservation or commitment goes back (`releaseBooking`: pending_in → external, pending_out →
 * liquid, a payout's share auto_pay → liquid and back to its pool) with `position.updated`;
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
    { status, reason: `${status}: ${reason}`, ...releaseBooking(leg), position: null },
    { txId: leg.txId, expect: [leg.status] },
  );
  return recorded.stale ? undefined : recorded.result;
}

export interface CancelPlanParameters extends ReleaseLegParameters {
  readonly db: Books;
  readonly planId: string;
  /** The caller's wallet scope: a plan of another wallet is 403 WALLET_SCOPE. */
  readonly allowWallet: (wallet: string) => boolean;
  /**
   * Records the answer (the audit trail) in the transaction that cancels the legs: the legs,
   * their releases and the record commit together or not at all.
   */
  readonly recordWrite?: WriteRecorder<StoredPlanDocument> | undefined;
}

/** A leg moved while the plan was cancelled: nothing of this attempt is kept; read again. */
class LegMovedError extends Error {
  override readonly name = 'LegMovedError';
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
 * plan has nothing to cancel. Cancelling again answers the plan as it stands. With a recorder,
 * the legs are released in one transaction that also records the answer.
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
  const unsigned = settling.filter((leg) => leg.status === 'unsigned').map((leg) => leg.legIndex);
  try {
    return await recordedWrite(
      db,
      (client) => cancelLegs(parameters, client, plan, unsigned),
      parameters.recordWrite,
    );
  } catch (error) {
    if (error instanceof LegMovedError) return cancelPlan(parameters);
    throw error;
  }
}

/** Releases the plan's unsigned legs through `client`, and answers the plan as it then stands. */
async function cancelLegs(
  parameters: CancelPlanParameters,
  client: Books,
  plan: StoredPlan,
  legIndexes: readonly number[],
): Promise<StoredPlanDocument> {
  // Alone, each release is grouped with concurrent settlements; in the recorder's transaction
  // it is written there (the transaction's books), so that it commits with the record.
  for (const legIndex of legIndexes) {
    const leg = await findSettlementLeg(client, plan.id, legIndex);
    if (!leg) continue;
    const released = await releaseLeg(
      { db: client, now: parameters.now },
      leg,
      'cancelled',
      'by the owner',
    );
    if (!released) throw new LegMovedError(`leg ${legIndex} of ${plan.id} moved`);
  }
  return storedPlanDocument((await findPlan(client, plan.id)) ?? plan);
}
