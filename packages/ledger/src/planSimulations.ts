import type { Books } from './books';
import type { Prisma } from './generated/prisma/client';
import { sqlStatement } from './sqlClient';

// Plans' simulated outcomes (written with the plan, planInsert.ts) and the divergences settlement
// found (migration 0045).

export interface StoredPlanSimulation {
  readonly status: 'simulated' | 'unavailable';
  readonly digest: string | null;
  /** The `simulation` document as served at prepare. */
  readonly document: Prisma.JsonValue;
}

const PLAN_SIMULATION = sqlStatement(
  'yr_plan_simulation',
  'SELECT status, digest, document FROM plan_simulations WHERE plan_id = $1',
  { readOnly: true },
);

/**
 * The plan's simulation, or undefined for a plan stored without one (before 0045). On the
 * driver (a named statement): settlement reads it for every confirmed leg, where Prisma's cost
 * per call showed.
 */
export async function findPlanSimulation(
  db: Pick<Books, 'sql'>,
  planId: string,
): Promise<StoredPlanSimulation | undefined> {
  const [row] = await db.sql.query<StoredPlanSimulation>(PLAN_SIMULATION, [planId]);
  return row;
}

export interface PlanDivergenceInput {
  readonly planId: string;
  readonly legIndex: number;
  readonly txId: string;
  readonly simulationDigest: string;
  /** JSON-safe: `{ account, role, asset, simulated, actual }` with amounts as strings. */
  readonly changes: Prisma.InputJsonValue[];
  readonly now: Date;
}

/**
 * Records what a leg's transaction moved otherwise than the simulation. Idempotent per leg and
 * transaction: the same comparison again changes nothing.
 */
export async function recordPlanDivergence(
  db: Pick<Books, '$executeRaw'>,
  divergence: PlanDivergenceInput,
): Promise<void> {
  await db.$executeRaw`
    INSERT INTO plan_divergences (plan_id, leg_index, tx_id, simulation_digest, changes,
                                  recorded_at)
    VALUES (${divergence.planId}, ${divergence.legIndex}, ${divergence.txId},
            ${divergence.simulationDigest}, ${JSON.stringify(divergence.changes)}::jsonb,
            ${divergence.now})
    ON CONFLICT (plan_id, leg_index, tx_id) DO NOTHING`;
}

export interface StoredPlanDivergence {
  readonly legIndex: number;
  readonly txId: string;
  readonly simulationDigest: string;
  readonly changes: Prisma.JsonValue;
  readonly recordedAt: Date;
}

/** The divergences of the plan's legs, for the transactions its legs carry now. */
export async function listPlanDivergences(
  db: Pick<Books, '$queryRaw'>,
  planId: string,
): Promise<StoredPlanDivergence[]> {
  return db.$queryRaw<StoredPlanDivergence[]>`
    SELECT d.leg_index AS "legIndex", d.tx_id AS "txId",
           d.simulation_digest AS "simulationDigest", d.changes, d.recorded_at AS "recordedAt"
      FROM plan_divergences d
      JOIN plan_legs l ON l.plan_id = d.plan_id AND l.leg_index = d.leg_index
                      AND l.tx_id = d.tx_id
     WHERE d.plan_id = ${planId}
     ORDER BY d.leg_index`;
}
