import type { Books, PlanInput } from '@yieldrouter/ledger';

/** Where a use case stores a plan it prepared outside any transaction. */
export interface PlanStore {
  /**
   * The books: their grouped plan writes (`Books.plans`: a prepared statement, concurrent plans
   * in one), or inside a transaction the plan's statement there.
   */
  readonly db: Books;
}

/** Stores `plan` with its legs (and bridge transfer) through the books' plan writes. */
export function storePlan({ db }: PlanStore, plan: PlanInput): Promise<void> {
  return db.plans.write(plan);
}
