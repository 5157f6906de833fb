import {
  findTickDecision,
  insertAutopilotDecision,
  readAutopilotPolicy,
  runLedgerTransaction,
  scheduleNextAutopilotTick,
} from '@yieldrouter/ledger';
import type {
  AutopilotPolicyRow,
  Prisma,
  PrismaClient,
  PrismaClientOrTransaction,
} from '@yieldrouter/ledger';
import type {
  AutopilotCandidate,
  AutopilotDecision,
  AutopilotIncumbent,
  AutopilotPreviewRequest,
  AutopilotTickResult,
  Opportunity,
} from '@yieldrouter/schemas';
import { AUTOPILOT_DEFAULT_MIN_DELTA_BPS } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { windowMinSamples } from '../venues/venueConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { ledgerWallet } from '../wallets/walletAddress';
import { autopilotPeriod } from './autopilotPeriod';
import { allowlistOf, checkWalletChain } from './autopilotPolicy';
import type { AutopilotTerms, DecisionRecordParameters } from './autopilotRecords';
import { decisionDocument, decisionInput, decisionRecord, readIncumbent } from './autopilotRecords';
import { decideAutopilot } from './decideAutopilot';
import type { AutopilotOpportunity, AutopilotPosition } from './decideAutopilot';

/** The blocker codes of the wallet's guardrails an opportunity fails. */
export type GuardrailCheck = (opportunity: AutopilotOpportunity) => readonly string[];

/** What preparing a switch's rebalance plan made of it. */
export interface AutopilotSwitchPlan {
  readonly planId: string | null;
  readonly status: 'prepared' | 'blocked';
  readonly blockers: readonly string[];
}

/** Where the autopilot reaches the rest of the engine (guardrails and rebalance). */
export interface AutopilotHooks {
  /** The wallet's guardrails as a check; absent: no guardrails to check. */
  readonly guardrails?: (db: PrismaClientOrTransaction, wallet: string) => Promise<GuardrailCheck>;
  /** Prepares the rebalance plan of a switch in the tick's transaction; absent: none can be. */
  readonly prepareSwitch?: (request: {
    readonly db: Prisma.TransactionClient;
    readonly address: string;
    readonly from: AutopilotIncumbent;
    readonly to: AutopilotCandidate;
    readonly now: Date;
  }) => Promise<AutopilotSwitchPlan>;
}

export interface AutopilotDecisionParameters {
  readonly db: PrismaClient;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly address: string;
  readonly opportunities: readonly Opportunity[];
  readonly now: Date;
  readonly hooks?: AutopilotHooks;
}

/** The samples a 30-day mean needs before it ranks. */
export const autopilotMinSamples = (venues: VenueConfig) => windowMinSamples(venues, 30);

/** The rule's ruling and record fields for a wallet under `terms`. */
export async function ruleOn(
  db: PrismaClientOrTransaction,
  wallet: string,
  terms: AutopilotTerms,
  opportunities: readonly Opportunity[],
  hooks: AutopilotHooks | undefined,
  incumbent?: AutopilotPosition | null,
) {
  const [position, guardrailBlockers] = await Promise.all([
    incumbent === undefined ? readIncumbent(db, wallet, terms.chain) : incumbent,
    hooks?.guardrails?.(db, wallet),
  ]);
  const ruling = decideAutopilot({
    chain: terms.chain,
    opportunities,
    venueAllowlist: terms.venueAllowlist,
    thresholdBps: terms.rebalanceMinDeltaBps,
    incumbent: position,
    ...(guardrailBlockers ? { guardrailBlockers } : {}),
  });
  return { ruling, guardrailsChecked: guardrailBlockers !== undefined };
}

async function storedPolicy(db: PrismaClientOrTransaction, wallet: string, lock = false) {
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
  db: PrismaClientOrTransaction,
  parameters: DecisionRecordParameters,
  now: Date,
): Promise<AutopilotDecision> {
  const row = await insertAutopilotDecision(db, decisionInput(decisionRecord(parameters), now));
  if (!row) throw new Error(`the ${parameters.kind} decision of ${parameters.wallet} was not kept`);
  return decisionDocument(row);
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
  const chain = input.chain ?? stored?.chain;
  if (!chain) {
    throw new EngineError(
      'BAD_REQUEST',
      'body.chain: required (sui or solana) while the wallet has no autopilot policy',
      'body.chain',
    );
  }
  checkWalletChain(parameters.adapters, parameters.address, chain, 'body.chain');
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
  const rule = await ruleOn(db, wallet, terms, parameters.opportunities, parameters.hooks);
  return recordDecision(
    db,
    {
      wallet,
      kind: 'preview',
      period: null,
      terms,
      minSamples: autopilotMinSamples(parameters.venues),
      ...rule,
    },
    parameters.now,
  );
}

/** POST …/autopilot/decide: the decision under the stored policy now. Recorded; moves nothing. */
export async function decideAutopilotNow(
  parameters: AutopilotDecisionParameters,
): Promise<AutopilotDecision> {
  const { db } = parameters;
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  const policy = await storedPolicy(db, wallet);
  const rule = await ruleOn(db, wallet, policy, parameters.opportunities, parameters.hooks);
  return recordDecision(
    db,
    {
      wallet,
      kind: 'decide',
      period: null,
      terms: policy,
      minSamples: autopilotMinSamples(parameters.venues),
      ...rule,
    },
    parameters.now,
  );
}

/** What a tick's switch became once its rebalance plan was asked for. */
async function planSwitch(
  tx: Prisma.TransactionClient,
  address: string,
  rule: Awaited<ReturnType<typeof ruleOn>>,
  hooks: AutopilotHooks | undefined,
  now: Date,
): Promise<DecisionRecordParameters['plan']> {
  const { incumbent, challenger, outcome } = rule.ruling;
  if (outcome !== 'switch' || !incumbent || !challenger) return undefined;
  if (!hooks?.prepareSwitch) {
    return {
      planId: null,
      blockers: [],
      outcome: 'switch',
      reason: 'rebalance_unavailable',
      explanation:
        'No rebalance plan could be prepared: this service has no rebalance use case yet, ' +
        'so nothing was prepared and nothing moved.',
    };
  }
  const plan = await hooks.prepareSwitch({ db: tx, address, from: incumbent, to: challenger, now });
  return plan.status === 'prepared'
    ? {
        planId: plan.planId,
        blockers: [],
        outcome: 'switch',
        reason: rule.ruling.reason,
        explanation: `Rebalance plan ${plan.planId} is prepared for the owner to sign.`,
      }
    : {
        planId: plan.planId,
        blockers: plan.blockers,
        outcome: 'blocked',
        reason: 'rebalance_blocked',
        explanation: `The rebalance plan is blocked (${plan.blockers.join(', ')}); nothing moved.`,
      };
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
  const { now, hooks } = parameters;
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  return runLedgerTransaction(parameters.db, async (tx) => {
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
    const rule = await ruleOn(tx, wallet, policy, parameters.opportunities, hooks);
    const plan = await planSwitch(tx, parameters.address, rule, hooks, now);
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
