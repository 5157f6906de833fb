import { findLegByTx, findPlan, markLegSubmitted } from '@yieldrouter/ledger';
import type { Books, StoredPlan, StoredPlanLeg } from '@yieldrouter/ledger';
import type {
  Chain,
  ChainEnablement,
  ExecuteResult,
  SignedLegCheck,
  SignedTransaction,
} from '@yieldrouter/schemas';
import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { storedPayload } from './legDocument';
import { storedPlanDocument } from './storedPlanDocument';
import { requireBridgeDelivered } from '../bridge/requireBridgeDelivered';
import { requireSwapSettled } from '../bridge/requireSwapSettled';

export interface ExecutePlanLegParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  /** Per chain: the server broadcasts only where the execution mode is `broadcast`. */
  readonly enablement: readonly ChainEnablement[];
  readonly planId: string;
  readonly legIndex: number;
  readonly signed: SignedTransaction;
  readonly now: Date;
}

const FIELD = 'body.signedTransaction';

async function loadLeg({ db, planId, legIndex }: ExecutePlanLegParameters) {
  if (!isPlanId(planId)) {
    throw new EngineError('BAD_REQUEST', 'body.planId: must be plan_ + 32 hex', 'body.planId');
  }
  const plan = await findPlan(db, planId);
  if (!plan)
    throw new EngineError('PLAN_NOT_FOUND', `body.planId: no plan ${planId}`, 'body.planId');
  const leg = plan.legs.find((entry) => entry.legIndex === legIndex);
  if (!leg || !plan.owner) {
    const why = plan.status === 'blocked' ? 'it is blocked and has no legs' : 'no such leg';
    throw new EngineError(
      'PLAN_NOT_FOUND',
      `body.legIndex: plan ${planId} has no leg ${legIndex} (${why})`,
      'body.legIndex',
    );
  }
  return { plan, leg, owner: plan.owner };
}

/**
 * A swap or gas-sponsor plan signs a price its quote promised until `expiresAt`: past it, no leg
 * of the plan is sent (409 QUOTE_EXPIRED, nothing recorded); the caller prepares a new plan.
 * Once every swap leg of the plan settled, the quote has done its work: the legs after it (a
 * swap → bridge → deposit plan's burn, and its deposit after the delivery) are sent as any.
 */
function refuseExpiredQuote(plan: StoredPlan, now: Date) {
  const swapLegs = plan.legs.filter((leg) => leg.effect === 'swap');
  if (swapLegs.length > 0 && swapLegs.every((leg) => leg.status === 'confirmed')) return;
  const swap = plan.swap;
  const expiresAt =
    typeof swap === 'object' && swap !== null && !Array.isArray(swap) ? swap['expiresAt'] : null;
  if (typeof expiresAt !== 'string') return;
  const expiry = Date.parse(expiresAt);
  if (Number.isNaN(expiry) || now.getTime() <= expiry) return;
  throw new EngineError(
    'QUOTE_EXPIRED',
    `body.planId: the quote of ${plan.kind} plan ${plan.id} expired at ${expiresAt}; its price ` +
      'no longer holds and nothing was sent. Prepare a new plan and sign its legs.',
    'body.planId',
  );
}

function refuseUnlessBroadcast(parameters: ExecutePlanLegParameters, plan: StoredPlan) {
  const mode = parameters.enablement.find((entry) => entry.chain === plan.chain)?.executionMode;
  if (mode === 'broadcast') return;
  throw broadcastOff(
    plan,
    parameters.legIndex,
    `server broadcast is off (execution mode ${mode ?? 'disabled'})`,
  );
}

const broadcastOff = (plan: StoredPlan, legIndex: number, why: string) =>
  new EngineError(
    'BROADCAST_DISABLED',
    `${plan.chain}: ${why}. Submit the signed transaction yourself, then settle the leg: ` +
      `POST /api/v1/svc/plans/${plan.id}/legs/${legIndex}/settle with its txId.`,
  );

/** The adapter's verdict on the bytes; bytes that are not a transaction of the chain are 400. */
async function checkBytes(
  parameters: ExecutePlanLegParameters,
  plan: StoredPlan,
  leg: StoredPlanLeg,
  owner: string,
): Promise<string> {
  let check: SignedLegCheck;
  try {
    check = await parameters.adapters[plan.chain as Chain].checkSignedLeg(parameters.signed, {
      planId: plan.id,
      owner,
      payload: storedPayload(leg),
    });
  } catch (error) {
    if (!(error instanceof InvalidChainInputError)) throw error;
    const detail = error.message.replace(/^transaction: /, '');
    throw new EngineError('BAD_REQUEST', `${FIELD}: ${detail}`, FIELD);
  }
  if (check.status === 'mismatch') {
    throw new EngineError('SIGNED_TRANSACTION_MISMATCH', `${FIELD}: ${check.reason}`, FIELD);
  }
  return check.txId;
}

/** What a leg that already carries a transaction answers: a replay for ours, else a conflict. */
async function alreadyCarried(
  parameters: ExecutePlanLegParameters,
  leg: StoredPlanLeg,
  txId: string,
): Promise<boolean> {
  if (leg.txId === txId) return true;
  if (leg.status !== 'unsigned') {
    throw new EngineError(
      'SETTLEMENT_CONFLICT',
      `${FIELD}: leg ${leg.legIndex} of ${parameters.planId} already carries ${leg.txId ?? 'a transaction'} (${leg.status})`,
      FIELD,
    );
  }
  const claimed = await findLegByTx(parameters.db, txId);
  if (claimed) {
    throw new EngineError(
      'SETTLEMENT_CONFLICT',
      `${FIELD}: transaction ${txId} already belongs to plan ${claimed.planId} leg ${claimed.legIndex}`,
      FIELD,
    );
  }
  return false;
}

/** The plan as stored now, when its leg carries `txId` (a concurrent execute of the same bytes
 * may have recorded it first); else undefined. */
async function recordedPlan(parameters: ExecutePlanLegParameters, txId: string) {
  const { plan, leg } = await loadLeg(parameters);
  return leg.txId === txId ? plan : undefined;
}

/** The answer: the plan as read, with the leg and its transaction. */
function answer(
  plan: Awaited<ReturnType<typeof loadLeg>>['plan'],
  legIndex: number,
  txId: string,
  replay: boolean,
): ExecuteResult {
  return { ...storedPlanDocument(plan), legIndex, txId, replay };
}

/**
 * POST /svc/strategies/deposit/execute: broadcasts the owner-signed bytes of one prepared leg
 * through the chain adapter, only where the chain's execution mode is `broadcast`, and records
 * the transaction id the chain returned (leg `submitted`, plan `submitted: true`). Settlement
 * stays with `settleLeg`. The bytes must be the leg's prepared transaction fully signed by the
 * plan owner (`checkSignedLeg`). Idempotent: the same bytes again answer a replay without a
 * second broadcast; other bytes for a leg that has a transaction are 409. Nothing is recorded
 * when the chain refuses the bytes (422) or does not answer (503).
 */
export async function executePlanLeg(parameters: ExecutePlanLegParameters): Promise<ExecuteResult> {
  const { db, adapters, now, legIndex } = parameters;
  const loaded = await loadLeg(parameters);
  const { leg, owner } = loaded;
  // The leg's chain: a cross-chain deposit's bridge legs run on the source chain.
  const plan = { ...loaded.plan, chain: leg.chain };
  refuseExpiredQuote(plan, now);
  refuseUnlessBroadcast(parameters, plan);
  // A cross-chain deposit's deposit leg is sent once its bridge delivered (409 before).
  if (leg.effect === 'bridged_stake') await requireBridgeDelivered(db, { ...leg, planId: plan.id });
  // Its bridge legs, after a swap into USDC, are sent once the swap settled (409 before).
  await requireSwapSettled(db, { ...leg, planId: plan.id });
  const txId = await checkBytes(parameters, plan, leg, owner);
  if (await alreadyCarried(parameters, leg, txId)) return answer(loaded.plan, legIndex, txId, true);

  const sent = await adapters[plan.chain as Chain].broadcast(parameters.signed);
  switch (sent.status) {
    case 'refused':
      throw broadcastOff(plan, legIndex, sent.blocker.message);
    case 'rejected': {
      const recorded = await recordedPlan(parameters, txId);
      if (recorded) return answer(recorded, legIndex, txId, true);
      throw new EngineError(
        'BROADCAST_REJECTED',
        `${plan.chain}: the chain refused the transaction: ${sent.reason}`,
      );
    }
    case 'unavailable':
      throw new EngineError(
        'SERVICE_UNAVAILABLE',
        `${plan.chain}: ${sent.detail}. The transaction may still land; settle the leg with txId ${txId} once it does.`,
      );
    case 'submitted':
      break;
  }
  if (sent.txId !== txId) {
    throw new Error(`${plan.chain}: the adapter reported ${sent.txId} for transaction ${txId}`);
  }
  if (
    !(await markLegSubmitted(db, { planId: plan.id, legIndex, txId, now }, { broadcast: true }))
  ) {
    // Another execute recorded the leg between our read and now.
    const recorded = await recordedPlan(parameters, txId);
    if (recorded) return answer(recorded, legIndex, txId, true);
    throw new EngineError(
      'SETTLEMENT_CONFLICT',
      `${FIELD}: leg ${legIndex} of ${plan.id} was given another transaction meanwhile`,
      FIELD,
    );
  }
  return answer((await loadLeg(parameters)).plan, legIndex, txId, false);
}
