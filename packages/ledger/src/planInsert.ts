import type { Books } from './books';
import { BatchQueue } from './batchQueue';
import type { BatchResult } from './batchQueue';
import { isDatabaseUnavailable } from './databaseUnavailable';
import type { PlanInput } from './plans';
import type { SqlClient, SqlValue } from './sqlClient';
import { sqlStatement } from './sqlClient';

// Plans, their legs, their bridge transfers and their simulations as four JSON documents: one statement text for
// one plan or many (a named prepared statement, planned once per connection), atomic without a
// transaction. The data-modifying CTEs run whether or not the last INSERT reads them, and the
// foreign keys of the legs and transfers are checked at the end of the statement, when the plans
// are in. Amounts go in as decimal strings (bigint from JSON text, no float on the way).
const INSERT_PLANS = sqlStatement(
  'yr_insert_plans',
  `
  WITH plan_rows AS (
    INSERT INTO plans (id, kind, status, chain, venue_id, owner, wallet, amount_micros, fee_micros,
                       request, blockers, swap, created_at)
    SELECT p.id, p.kind, p.status, p.chain, p.venue_id, p.owner, p.wallet, p.amount_micros,
           p.fee_micros, p.request, p.blockers, p.swap, COALESCE(p.created_at, now())
    FROM jsonb_to_recordset($1::jsonb) AS p(id text, kind text, status text, chain text,
                                            venue_id text, owner text, wallet text,
                                            amount_micros bigint, fee_micros bigint,
                                            request jsonb, blockers jsonb, swap jsonb,
                                            created_at timestamptz)
  ), transfer_rows AS (
    INSERT INTO bridge_transfers (plan_id, rail, speed, source_chain, dest_chain, owner,
                                  recipient, burn_micros, max_rail_fee_micros,
                                  min_received_micros, service_fee_micros, fee_recipient)
    SELECT t.plan_id, t.rail, t.speed, t.source_chain, t.dest_chain, t.owner, t.recipient,
           t.burn_micros, t.max_rail_fee_micros, t.min_received_micros, t.service_fee_micros,
           t.fee_recipient
    FROM jsonb_to_recordset($2::jsonb) AS t(plan_id text, rail text, speed text,
                                            source_chain text, dest_chain text, owner text,
                                            recipient text, burn_micros bigint,
                                            max_rail_fee_micros bigint,
                                            min_received_micros bigint,
                                            service_fee_micros bigint, fee_recipient text)
  ), simulation_rows AS (
    INSERT INTO plan_simulations (plan_id, status, digest, document)
    SELECT s.plan_id, s.status, s.digest, s.document
    FROM jsonb_to_recordset($4::jsonb) AS s(plan_id text, status text, digest text,
                                            document jsonb)
  )
  INSERT INTO plan_legs (plan_id, leg_index, action, summary, amount_micros, settles, payload,
                         effect, venue_id, min_settle_micros, max_settle_micros, chain)
  SELECT leg.plan_id, leg.leg_index, leg.action, leg.summary, leg.amount_micros, leg.settles,
         leg.payload, leg.effect, leg.venue_id, leg.min_settle_micros, leg.max_settle_micros,
         leg.chain
  FROM jsonb_to_recordset($3::jsonb) AS leg(plan_id text, leg_index integer, action text,
                                            summary text, amount_micros bigint,
                                            settles boolean, payload jsonb, effect text,
                                            venue_id text, min_settle_micros bigint,
                                            max_settle_micros bigint, chain text)`,
);

const amount = (micros: bigint | undefined) => (micros === undefined ? null : micros.toString());

/** The statement's three documents for `plans`: the plans, their bridge transfers, their legs. */
function insertValues(plans: readonly PlanInput[]): SqlValue[] {
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
          },
        ]
      : [],
  );
  return [
    JSON.stringify(planRows),
    JSON.stringify(transferRows),
    JSON.stringify(legRows),
    JSON.stringify(simulationRows),
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
