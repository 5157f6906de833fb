import { findPlan } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { StoredPlanDocument } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { storedPlanDocument } from './storedPlanDocument';

/** GET /svc/plans/{planId}: the stored plan with its legs' state; unknown → 404 PLAN_NOT_FOUND. */
export async function readPlan(db: Books, planId: string): Promise<StoredPlanDocument> {
  const plan = await findPlan(db, planId);
  if (!plan)
    throw new EngineError('PLAN_NOT_FOUND', `path.planId: no plan ${planId}`, 'path.planId');
  return storedPlanDocument(plan);
}
