import type { Books } from './books';
import type { Prisma } from './generated/prisma/client';
import { insertOutboxEvents } from './legs';
import type { OutboxEventInput } from './legs';
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

/** Who is who to a plan whose later legs are deferred, kept for their simulation (0068). */
export async function findDeferredRoles(
  db: Pick<Books, '$queryRaw'>,
  planId: string,
): Promise<Prisma.JsonValue | null> {
  const [row] = await db.$queryRaw<{ roles: Prisma.JsonValue | null }[]>`
    SELECT deferred_roles AS roles FROM plan_simulations WHERE plan_id = ${planId}`;
  return row?.roles ?? null;
}

export interface DeferredLegSimulationInput {
  readonly planId: string;
  /** The digest the new document replaces: another writer first, and nothing is written. */
  readonly fromDigest: string;
  readonly digest: string;
  readonly document: Prisma.InputJsonObject;
  /** Whether a leg is still deferred (the roles are kept for it; otherwise dropped). */
  readonly stillDeferred: boolean;
  /** The `plan.simulated` event, written with the new document. */
  readonly events: readonly OutboxEventInput[];
  readonly now: Date;
}

/**
 * Stores a plan's simulation with a deferred leg now simulated (issue 44: Solana and Sui legs
 * run after the leg before them settled) and its event, in one transaction. Only over the
 * document it was computed from (`fromDigest`): false, and nothing written, when another
 * settlement stored a newer one first.
 */
export async function recordDeferredLegSimulation(
  db: Books,
  input: DeferredLegSimulationInput,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx.$executeRaw`
      UPDATE plan_simulations
         SET digest = ${input.digest}, document = ${JSON.stringify(input.document)}::jsonb,
             deferred_roles = CASE WHEN ${input.stillDeferred} THEN deferred_roles END
       WHERE plan_id = ${input.planId} AND digest = ${input.fromDigest}`;
    if (updated === 0) return false;
    await insertOutboxEvents(tx, input.events, input.now);
    return true;
  });
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

/**
 * The divergences of the plan's legs, for the transactions its legs carry now, and of a bridge's
 * mint (0070: under the index after the plan's legs), for the transaction that delivered it.
 */
export async function listPlanDivergences(
  db: Pick<Books, '$queryRaw'>,
  planId: string,
): Promise<StoredPlanDivergence[]> {
  return db.$queryRaw<StoredPlanDivergence[]>`
    SELECT d.leg_index AS "legIndex", d.tx_id AS "txId",
           d.simulation_digest AS "simulationDigest", d.changes, d.recorded_at AS "recordedAt"
      FROM plan_divergences d
     WHERE d.plan_id = ${planId}
       AND (EXISTS (SELECT 1 FROM plan_legs l
                     WHERE l.plan_id = d.plan_id AND l.leg_index = d.leg_index
                       AND l.tx_id = d.tx_id)
            OR EXISTS (SELECT 1 FROM bridge_transfers b
                        WHERE b.plan_id = d.plan_id AND b.mint_tx_id = d.tx_id))
     ORDER BY d.leg_index`;
}
