import type { Blocker } from '@yieldrouter/schemas';

/** A plan the API refused to prepare: HTTP 200, `status: 'blocked'`, with the reasons. */
export type BlockedPlan<P> = P & { readonly status: 'blocked'; readonly blockers: Blocker[] };

/**
 * Whether a plan came back blocked. Blocked plans are results, not errors: the API answers
 * 200 and lists `blockers` (codes from `GET /api/v1/svc/errors`).
 *
 * @example
 * const plan = await client.prepareDepositPlan({ body: { strategyId, amountMicros: '1000000' } });
 * if (isBlockedPlan(plan)) {
 *   for (const blocker of plan.blockers) console.warn(blocker.code, blocker.message);
 * } else {
 *   await ownerSigns(plan);
 * }
 */
export function isBlockedPlan<
  P extends { readonly status: string; readonly blockers?: readonly Blocker[] | undefined },
>(plan: P): plan is BlockedPlan<P> {
  return plan.status === 'blocked' && Array.isArray(plan.blockers);
}
