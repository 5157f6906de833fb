import { findTickDecision, scheduleNextAutopilotTick } from '@yieldrouter/ledger';
import type { AutopilotPolicyRow, Books } from '@yieldrouter/ledger';
import type { AutopilotTickResult } from '@yieldrouter/schemas';
import { EngineError, refusalOf } from '../errors';
import { prepareRebalance } from '../wallet/prepareRebalance';
import { ledgerWallet } from '../wallet/walletAddress';
import { autopilotMinSamples, recordDecision, ruleOn, storedPolicy } from './autopilotDecisions';
import type { AutopilotDecisionParameters } from './autopilotDecisions';
import { autopilotPeriod } from './autopilotPeriod';
import type { DecisionRecordParameters } from './autopilotRecords';
import { decisionDocument } from './autopilotRecords';
import type { AutopilotRuling } from './decideAutopilot';

/**
 * A tick's switch as a rebalance plan (the whole incumbent into the challenger, one chain),
 * prepared in the tick's transaction: a prepared plan keeps the switch; a blocked one (venue
 * readiness, the guardrails on the move, the adapter) or a refusal makes the decision
 * `blocked` (`rebalance_blocked`) with the blockers named.
 */
async function planSwitch(
  tx: Books,
  parameters: AutopilotDecisionParameters,
  ruling: AutopilotRuling,
): Promise<DecisionRecordParameters['plan']> {
  const { incumbent, challenger, outcome } = ruling;
  if (outcome !== 'switch' || !incumbent || !challenger) return undefined;
  const blocked = (planId: string | null, blockers: readonly string[]) => ({
    planId,
    blockers,
    outcome: 'blocked' as const,
    reason: 'rebalance_blocked' as const,
    explanation: `The rebalance plan is blocked (${blockers.join(', ')}); nothing moved.`,
  });
  try {
    const plan = await prepareRebalance(
      {
        db: tx,
        adapters: parameters.adapters,
        venues: parameters.venues,
        opportunities: parameters.opportunities,
        treasuries: parameters.treasuries,
      },
      {
        wallet: parameters.address,
        fromOpportunityId: incumbent.opportunityId,
        toOpportunityId: challenger.opportunityId,
        amount: 'all',
        now: parameters.now,
      },
    );
    if (plan.status !== 'prepared') {
      return blocked(
        plan.planId ?? null,
        (plan.blockers ?? []).map((entry) => entry.code),
      );
    }
    return {
      planId: plan.planId ?? null,
      blockers: [],
      outcome: 'switch',
      reason: ruling.reason,
      explanation:
        `Rebalance plan ${plan.planId} (withdraw ${incumbent.venueId}, deposit ` +
        `${challenger.venueId}) is prepared for the owner to sign; nothing moves until then.`,
    };
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return blocked(null, [refusal.code]);
  }
}

/**
 * POST …/autopilot/tick (and the keeper): this period's decision and, on a switch, the
 * rebalance plan for the owner to sign, once per wallet and period. The policy row is locked
 * for the tick, so concurrent ticks run one after the other and every later one answers the
 * first one's decision (`replayed: true`); no second plan is prepared. A disabled autopilot is
 * refused (409 AUTOPILOT_DISABLED) and nothing is stored.
 */
export async function tickAutopilot(
  parameters: AutopilotDecisionParameters,
): Promise<AutopilotTickResult> {
  const { now } = parameters;
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  return parameters.db.transaction(async (tx) => {
    const policy: AutopilotPolicyRow = await storedPolicy(tx, wallet, true);
    if (!policy.enabled) {
      throw new EngineError(
        'AUTOPILOT_DISABLED',
        `the autopilot of wallet ${wallet} is disabled: the owner enables it first`,
      );
    }
    const period = autopilotPeriod(policy.cadence, now);
    const first = await findTickDecision(tx, wallet, period.key);
    if (first) {
      return {
        schemaVersion: 'svc-autopilot-tick.v1' as const,
        replayed: true,
        decision: decisionDocument(first),
      };
    }
    const rule = await ruleOn(tx, wallet, policy, parameters.opportunities);
    const plan = await planSwitch(tx, parameters, rule.ruling);
    const decision = await recordDecision(
      tx,
      {
        wallet,
        kind: 'tick',
        period: period.key,
        terms: policy,
        minSamples: autopilotMinSamples(parameters.venues),
        ...rule,
        ...(plan ? { plan } : {}),
      },
      now,
    );
    await scheduleNextAutopilotTick(tx, wallet, period.nextStartsAt);
    return { schemaVersion: 'svc-autopilot-tick.v1' as const, replayed: false, decision };
  });
}
