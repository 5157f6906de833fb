import {
  insertAutopilotDecision,
  readAutopilotPolicy,
  readTrackedPositions,
} from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { AutopilotDecision, AutopilotPreviewRequest, Opportunity } from '@yieldrouter/schemas';
import { AUTOPILOT_DEFAULT_MIN_DELTA_BPS } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { readGuardrails } from '../guardrail/readGuardrails';
import { windowMinSamples } from '../venues/venueConfig';
import type { VenueConfig } from '../venues/venueConfig';
import type { Treasuries } from '../plan/withdrawSkim';
import { ledgerWallet } from '../wallet/walletAddress';
import { allowlistOf, policyChain } from './autopilotPolicy';
import type { AutopilotTerms, DecisionRecordParameters } from './autopilotRecords';
import { decisionDocument, decisionInput, decisionRecord, incumbentOf } from './autopilotRecords';
import { guardrailCheck } from './autopilotGuardrails';
import { decideAutopilot } from './decideAutopilot';

export interface AutopilotDecisionParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly address: string;
  readonly opportunities: readonly Opportunity[];
  readonly now: Date;
  /** Where the owner holds the receipts, a switch's withdraw leg pays the skim there. */
  readonly treasuries?: Treasuries | undefined;
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

/** The wallet's stored policy (locked for a tick), or 409 AUTOPILOT_NOT_CONFIGURED. */
export async function storedPolicy(db: Books, wallet: string, lock = false) {
  const policy = await readAutopilotPolicy(db, wallet, { lock });
  if (!policy) {
    throw new EngineError(
      'AUTOPILOT_NOT_CONFIGURED',
      `wallet ${wallet} has no autopilot policy: the owner enables it with a chain first`,
    );
  }
  return policy;
}

/** Keeps a decision and answers it as the API's document. */
export async function recordDecision(
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
