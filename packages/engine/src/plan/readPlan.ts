import { findPlan, findPlanSimulation, listPlanDivergences } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { StoredPlanDocument } from '@yieldrouter/schemas';
import { DivergentChange, PlanSimulation } from '@yieldrouter/schemas';
import { z } from 'zod';
import { EngineError } from '../errors';
import { storedJson } from './storedJson';
import { storedPlanDocument } from './storedPlanDocument';

const DivergentChanges = z.array(DivergentChange);

/**
 * GET /svc/plans/{planId}: the stored plan with its legs' state, its simulation at prepare and
 * the divergences settlement found (issue 44); unknown → 404 PLAN_NOT_FOUND.
 */
export async function readPlan(db: Books, planId: string): Promise<StoredPlanDocument> {
  const plan = await findPlan(db, planId);
  if (!plan)
    throw new EngineError('PLAN_NOT_FOUND', `path.planId: no plan ${planId}`, 'path.planId');
  const [simulation, divergences] = await Promise.all([
    findPlanSimulation(db, planId),
    listPlanDivergences(db, planId),
  ]);
  return {
    ...storedPlanDocument(plan),
    ...(simulation
      ? {
          simulation: storedJson(
            PlanSimulation,
            simulation.document,
            `plan ${planId}'s simulation`,
          ),
        }
      : {}),
    ...(plan.status === 'prepared'
      ? {
          divergences: divergences.map((divergence) => ({
            legIndex: divergence.legIndex,
            txId: divergence.txId,
            simulationDigest: divergence.simulationDigest,
            changes: storedJson(
              DivergentChanges,
              divergence.changes,
              `plan ${planId}'s divergence on leg ${divergence.legIndex}`,
            ),
            recordedAt: divergence.recordedAt.toISOString(),
          })),
        }
      : {}),
  };
}
