import { readTrackedPositions } from '@yieldrouter/ledger';
import type {
  AutopilotDecisionInput,
  AutopilotDecisionRow,
  AutopilotPolicyRow,
  Books,
  TrackedPosition,
} from '@yieldrouter/ledger';
import type { AutopilotChain, AutopilotDecision, AutopilotPolicy } from '@yieldrouter/schemas';
import { AUTOPILOT_STRATEGY_ID } from '@yieldrouter/schemas';
import type { AutopilotPosition, AutopilotRuling } from './decideAutopilot';

/** The terms a decision ran under (a stored policy, or one with a preview's overrides). */
export type AutopilotTerms = Pick<
  AutopilotPolicyRow,
  'chain' | 'enabled' | 'rebalanceMinDeltaBps' | 'cadence' | 'venueAllowlist' | 'goal'
>;

export const policyDocument = (row: AutopilotPolicyRow): AutopilotPolicy => ({
  strategyId: AUTOPILOT_STRATEGY_ID,
  chain: row.chain,
  enabled: row.enabled,
  rebalanceMinDeltaBps: row.rebalanceMinDeltaBps,
  cadence: row.cadence,
  venueAllowlist: [...row.venueAllowlist],
  goal: row.goal,
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * The position the autopilot may move on `chain`: the wallet's largest staked one there (ties
 * by opportunity id), or null with nothing staked on the chain.
 */
export function incumbentOf(
  positions: readonly TrackedPosition[],
  chain: AutopilotChain,
): AutopilotPosition | null {
  let best: TrackedPosition | undefined;
  for (const position of positions) {
    if (position.chain !== chain || position.stakedMicros <= 0n) continue;
    if (
      !best ||
      position.stakedMicros > best.stakedMicros ||
      (position.stakedMicros === best.stakedMicros && position.opportunityId < best.opportunityId)
    ) {
      best = position;
    }
  }
  return best
    ? {
        opportunityId: best.opportunityId,
        venueId: best.venueId,
        stakedMicros: best.stakedMicros,
      }
    : null;
}

/** The wallet's incumbent on `chain`, read from the books. */
export async function readIncumbent(
  db: Books,
  wallet: string,
  chain: AutopilotChain,
): Promise<AutopilotPosition | null> {
  return incumbentOf(await readTrackedPositions(db, [wallet]), chain);
}

/** The decision document without its id and time (what is stored as the record). */
export type DecisionRecord = Omit<AutopilotDecision, 'decisionId' | 'decidedAt'>;

export interface DecisionRecordParameters {
  readonly wallet: string;
  readonly kind: AutopilotDecision['kind'];
  readonly period: string | null;
  readonly terms: AutopilotTerms;
  readonly minSamples: number;
  readonly ruling: AutopilotRuling;
  /** What a tick's plan preparation made of a switch (none: no plan was asked for). */
  readonly plan?: {
    readonly planId: string | null;
    readonly blockers: readonly string[];
    readonly outcome: AutopilotDecision['outcome'];
    readonly reason: AutopilotDecision['reason'];
    readonly explanation: string;
  };
}

export function decisionRecord(parameters: DecisionRecordParameters): DecisionRecord {
  const { ruling, terms, plan } = parameters;
  return {
    schemaVersion: 'svc-autopilot-decision.v1',
    wallet: parameters.wallet,
    kind: parameters.kind,
    period: parameters.period,
    strategyId: AUTOPILOT_STRATEGY_ID,
    chain: terms.chain,
    policy: {
      chain: terms.chain,
      enabled: terms.enabled,
      rebalanceMinDeltaBps: terms.rebalanceMinDeltaBps,
      cadence: terms.cadence,
      venueAllowlist: [...terms.venueAllowlist],
      goal: terms.goal,
    },
    metric: 'apyMean30dBps',
    minSamples: parameters.minSamples,
    thresholdBps: terms.rebalanceMinDeltaBps,
    candidates: ruling.candidates,
    incumbent: ruling.incumbent,
    challenger: ruling.challenger,
    deltaBps: ruling.deltaBps,
    outcome: plan?.outcome ?? ruling.outcome,
    reason: plan?.reason ?? ruling.reason,
    explanation: plan ? `${ruling.explanation} ${plan.explanation}` : ruling.explanation,
    planId: plan?.planId ?? null,
    planBlockers: [...(plan?.blockers ?? [])],
    withinChainOnly: true,
    crossChainRebalance: false,
    bridge: null,
  };
}

/** A record as the ledger keeps it. */
export const decisionInput = (record: DecisionRecord, decidedAt: Date): AutopilotDecisionInput => ({
  wallet: record.wallet,
  kind: record.kind,
  period: record.period,
  chain: record.chain,
  outcome: record.outcome,
  reason: record.reason,
  planId: record.planId,
  record,
  decidedAt,
});

/** A stored decision as answered: its record with its id (`apd_<n>`) and time. */
export function decisionDocument(row: AutopilotDecisionRow): AutopilotDecision {
  const record = row.record as unknown as DecisionRecord;
  return {
    ...record,
    schemaVersion: 'svc-autopilot-decision.v1',
    decisionId: `apd_${row.id}`,
    decidedAt: row.decidedAt.toISOString(),
  };
}
