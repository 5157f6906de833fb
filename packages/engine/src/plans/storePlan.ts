import { insertPlan } from '@yieldrouter/ledger';
import type { PlanInput, PlanWriter, SqlClientOrPrisma } from '@yieldrouter/ledger';

/** Where a use case stores a plan it prepared outside any transaction. */
export interface PlanStore {
  readonly db: SqlClientOrPrisma;
  /**
   * The books' grouped plan writes (`Database.plans`): a prepared statement, concurrent plans in
   * one. Unset (tests, scripts): the plan's statement runs on `db`, parsed and planned each time.
   */
  readonly plans?: PlanWriter | undefined;
}

/** Stores `plan` with its legs (and bridge transfer) through the books' plan writes if given. */
export function storePlan({ db, plans }: PlanStore, plan: PlanInput): Promise<void> {
  return plans ? plans.write(plan) : insertPlan(db, plan);
}
