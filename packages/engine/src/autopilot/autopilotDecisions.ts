import {
  findTickDecision,
  insertAutopilotDecision,
  readAutopilotPolicy,
  readTrackedPositions,
  scheduleNextAutopilotTick,
} from '@yieldrouter/ledger';
import type { AutopilotPolicyRow, Books } from '@yieldrouter/ledger';
import type {
  AutopilotDecision,
  AutopilotPreviewRequest,
  AutopilotTickResult,
  Opportunity,
} from '@yieldrouter/schemas';
import { AUTOPILOT_DEFAULT_MIN_DELTA_BPS } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError, refusalOf } from '../errors';
import { readGuardrails } from '../guardrails/readGuardrails';
import { prepareRebalance } from '../wallets/prepareRebalance';
import { windowMinSamples } from '../venues/venueConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { ledgerWallet } from '../wallets/walletAddress';
import { autopilotPeriod } from './autopilotPeriod';
import { allowlistOf, policyChain } from './autopilotPolicy';
import type { AutopilotTerms, DecisionRecordParameters } from './autopilotRecords';
import { decisionDocument, decisionInput, decisionRecord, incumbentOf } from './autopilotRecords';
import { guardrailCheck } from './autopilotGuardrails';
import { decideAutopilot } from './decideAutopilot';
import type { AutopilotRuling } from './decideAutopilot';

export interface AutopilotDecisionParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly address: string;
  readonly opportunities: readonly Opportunity[];
  readonly now: Date;
}

/** The samples a 30-day mean needs before it ranks. */
export const autopilotMinSamples = (venues: VenueConfig) => windowMinSamples(venues, 30);

/**
 * The rule's ruling for a wallet under `terms`, on its positions and guardrails as the books
 * hold them (read in `db`: a tick's transaction).
 */
export async function ruleOn(
  db: Books,
  wallet: string,
  terms: AutopilotTerms,
  opportunities: readonly Opportunity[],
) {
  const [positions, guardrails] = await Promise.all([
    readTrackedPositions(db, [wallet]),
    readGuardrails(db, wallet),
  ]);
  const incumbent = incumbentOf(positions, terms.chain);
  const ruling = decideAutopilot({
    chain: terms.chain,
    opportunities,
    venueAllowlist: terms.venueAllowlist,
    thresholdBps: terms.rebalanceMinDeltaBps,
    incumbent,
    guardrailBlockers: guardrailCheck(guardrails, positions, terms.chain, incumbent),
  });
  return { ruling };
}

async function storedPolicy(db: Books, wallet: string, lock = false) {
  const policy = await readAutopilotPolicy(db, wallet, { lock });
  if (!policy) {
    throw new EngineError(
      'AUTOPILOT_NOT_CONFIGURED',
      `wallet ${wallet} has no autopilot policy: the owner enables it with a chain first`,
    );
  }
  return policy;
}

async function recordDecision(
  db: Books,
  parameters: DecisionRecordParameters,
  now: Date,
): Promise<AutopilotDecision> {
  const row = await insertAutopilotDecision(db, decisionInput(decisionRecord(parameters), now));
  if (!row) throw new Error(`the ${parameters.kind} decision of ${parameters.wallet} was not kept`);
  return decisionDocument(row);
}

/** A preview's or decide's decision under `terms`, recorded (no period, no plan). */
async function decideAndRecord(
  parameters: AutopilotDecisionParameters,
  wallet: string,
  kind: 'preview' | 'decide',
  terms: AutopilotTerms,
): Promise<AutopilotDecision> {
  const rule = await ruleOn(parameters.db, wallet, terms, parameters.opportunities);
  const minSamples = autopilotMinSamples(parameters.venues);
  return recordDecision(
    parameters.db,
    { wallet, kind, period: null, terms, minSamples, ...rule },
    parameters.now,
  );
}

/**
 * POST …/autopilot/preview: the decision under the stored policy with the request's fields
 * replaced (a wallet without a policy names its chain). Recorded; moves nothing.
 */
export async function previewAutopilot(
  parameters: AutopilotDecisionParameters & { readonly input: AutopilotPreviewRequest },
): Promise<AutopilotDecision> {
  const { db, input } = parameters;
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  const stored = await readAutopilotPolicy(db, wallet);
  const chain = policyChain(parameters.adapters, parameters.address, input.chain, stored);
  const terms: AutopilotTerms = {
    chain,
    enabled: stored?.enabled ?? false,
    rebalanceMinDeltaBps:
      input.rebalanceMinDeltaBps ?? stored?.rebalanceMinDeltaBps ?? AUTOPILOT_DEFAULT_MIN_DELTA_BPS,
    cadence: stored?.cadence ?? 'monthly',
    venueAllowlist: input.venueAllowlist
      ? allowlistOf(input.venueAllowlist, chain, parameters.opportunities)
      : stored?.chain === chain
        ? stored.venueAllowlist
        : [],
    goal: stored?.goal ?? 'max_apy_30d',
  };
  return decideAndRecord(parameters, wallet, 'preview', terms);
}

/** POST …/autopilot/decide: the decision under the stored policy now. Recorded; moves nothing. */
export async function decideAutopilotNow(
  parameters: AutopilotDecisionParameters,
): Promise<AutopilotDecision> {
  const { db } = parameters;
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  return decideAndRecord(parameters, wallet, 'decide', await storedPolicy(db, wallet));
}

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
