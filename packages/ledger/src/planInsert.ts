import type { Books } from './books';
import { BatchQueue } from './batchQueue';
import type { BatchResult } from './batchQueue';
import { isDatabaseUnavailable } from './databaseUnavailable';
import type { PlanInput } from './plans';
import type { SqlClient, SqlValue } from './sqlClient';
import { sqlStatement } from './sqlClient';

// Plans, their legs, their bridge transfers and their simulations as four JSON documents: one
// statement for one plan or many (`ledger_insert_plans`, migration 0063; a named prepared
// statement on the driver), atomic without a transaction. The foreign keys of the legs and
// transfers are checked at the end of the function's statement, when the plans are in. Amounts go
// in as decimal strings (bigint from JSON text, no float on the way).
const INSERT_PLANS = sqlStatement(
  'yr_insert_plans_v2',
  'SELECT 1 AS done FROM ledger_insert_plans($1::jsonb, $2::jsonb, $3::jsonb, $4::jsonb)',
);

const amount = (micros: bigint | undefined) => (micros === undefined ? null : micros.toString());

/** The rows of `plans` as `ledger_insert_plans` takes them (each a JSON document). */
export function planDocuments(plans: readonly PlanInput[]) {
  const planRows = plans.map((plan) => ({
    id: plan.id,
    kind: plan.kind,
    status: plan.status,
    chain: plan.chain,
    venue_id: plan.venueId,
    owner: plan.owner,
    wallet: plan.wallet ?? null,
    amount_micros: amount(plan.amountMicros),
    fee_micros: amount(plan.feeMicros),
    request: plan.request,
    blockers: plan.blockers,
    swap: plan.swap ?? null,
    created_at: plan.createdAt?.toISOString() ?? null,
  }));
  const transferRows = plans.flatMap(({ id, bridgeTransfer: transfer }) =>
    transfer
      ? [
          {
            plan_id: id,
            rail: transfer.rail,
            speed: transfer.speed,
            source_chain: transfer.sourceChain,
            dest_chain: transfer.destChain,
            owner: transfer.owner,
            recipient: transfer.recipient,
            burn_micros: amount(transfer.burnMicros),
            max_rail_fee_micros: amount(transfer.maxRailFeeMicros),
            min_received_micros: amount(transfer.minReceivedMicros),
            service_fee_micros: amount(transfer.serviceFeeMicros),
            fee_recipient: transfer.feeRecipient,
          },
        ]
      : [],
  );
  const legRows = plans.flatMap((plan) =>
    plan.legs.map((leg, legIndex) => ({
      plan_id: plan.id,
      leg_index: legIndex,
      action: leg.action,
      summary: leg.summary,
      amount_micros: amount(leg.amountMicros),
      settles: leg.settles,
      payload: leg.payload,
      effect: leg.effect ?? 'none',
      venue_id: leg.venueId ?? null,
      min_settle_micros: amount(leg.minSettleMicros),
      max_settle_micros: amount(leg.maxSettleMicros),
      chain: leg.chain ?? null,
    })),
  );
  const simulationRows = plans.flatMap(({ id, simulation }) =>
    simulation
      ? [
          {
            plan_id: id,
            status: simulation.status,
            digest: simulation.digest,
            document: simulation.document,
            deferred_roles: simulation.deferredRoles ?? null,
          },
        ]
      : [],
  );
  return { plans: planRows, transfers: transferRows, legs: legRows, simulations: simulationRows };
}

function insertValues(plans: readonly PlanInput[]): SqlValue[] {
  const documents = planDocuments(plans);
  return [
    JSON.stringify(documents.plans),
    JSON.stringify(documents.transfers),
    JSON.stringify(documents.legs),
    JSON.stringify(documents.simulations),
  ];
}

/**
 * Stores plans with their legs and bridge transfers in one statement: all of them or, when one
 * row breaks a rule (a taken id, a check), none. On the driver it is a named prepared statement;
 * on a Prisma client or transaction (to compose it with other writes) it runs there.
 */
export async function insertPlans(
  db: Pick<Books, 'sql'>,
  plans: readonly PlanInput[],
): Promise<void> {
  if (plans.length === 0) return;
  await db.sql.query(INSERT_PLANS, insertValues(plans));
}

/** Stores one plan with its legs and its bridge transfer, if it has one (`insertPlans`). */
export function insertPlan(db: Pick<Books, 'sql'>, plan: PlanInput): Promise<void> {
  return insertPlans(db, [plan]);
}

/** Where a use case stores the plan it prepared (the books' `PlanWrites`, or a stand-in). */
export interface PlanWriter {
  write(plan: PlanInput): Promise<void>;
}

export interface PlanWritesOptions {
  /** Plans in one statement at most (default 32). */
  readonly maxBatch?: number;
  /**
   * Statements running at once (default 1). A plan's statement writes fresh rows and waits on
   * no lock (its foreign keys point at rows it inserts, or at venues, which nothing locks for
   * key updates), so one statement at a time costs a waiting plan at most one statement's time,
   * and groups the most plans per statement: measured on PostgreSQL with 4 concurrent bridge
   * plans, 0.25–0.30 ms of database CPU per plan with one in flight, 0.35–0.40 with two, 0.4–0.55
   * one plan per statement.
   */
  readonly maxInFlight?: number;
}

/**
 * Plan writes grouped across concurrent callers (`BatchQueue`): the plans prepared while a
 * statement runs are stored together by the next one, so under load the per-statement cost
 * (PostgreSQL sets up every CHECK expression of the three tables per statement, then commits)
 * is paid once per batch instead of once per plan. A caller alone is sent at once, and each
 * caller returns only once its own plan is committed. A batch that a row fails (a taken id, a
 * check) is stored again plan by plan, so the error reaches only the caller whose plan caused
 * it; a lost connection fails the whole batch (it may have committed: nothing is sent twice).
 */
export class PlanWrites implements PlanWriter {
  private readonly queue: BatchQueue<PlanInput, void>;

  constructor(sql: SqlClient, options: PlanWritesOptions = {}) {
    this.queue = new BatchQueue(
      async (plans): Promise<BatchResult<void>[]> => {
        try {
          await insertPlans({ sql }, plans);
          return plans.map(() => ({ ok: true, value: undefined }));
        } catch (error) {
          // Lost with the connection, the batch may have committed: no plan is sent twice.
          if (plans.length === 1 || isDatabaseUnavailable(error)) {
            return plans.map(() => ({ ok: false, error }));
          }
          return Promise.all(
            plans.map((plan) =>
              insertPlan({ sql }, plan).then(
                (): BatchResult<void> => ({ ok: true, value: undefined }),
                (alone: unknown): BatchResult<void> => ({ ok: false, error: alone }),
              ),
            ),
          );
        }
      },
      // One plan id per statement: the same id twice fails the later one alone.
      {
        maxBatch: options.maxBatch ?? 32,
        maxInFlight: options.maxInFlight ?? 1,
        keyOf: (plan) => plan.id,
      },
    );
  }

  write(plan: PlanInput): Promise<void> {
    return this.queue.push(plan);
  }
}
