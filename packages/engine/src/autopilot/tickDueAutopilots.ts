import {
  NO_GUARDRAILS,
  listDueAutopilotPolicies,
  readTrackedPositions,
  readWalletGuardrailsOf,
  recordAutopilotTicks,
} from '@yieldrouter/ledger';
import type { AutopilotTickRecord } from '@yieldrouter/ledger';
import { errorMessage } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { toGuardrails } from '../guardrail/readGuardrails';
import { guardrailCheck } from './autopilotGuardrails';
import { autopilotPeriod } from './autopilotPeriod';
import type { AutopilotDecisionParameters } from './autopilotDecisions';
import { autopilotMinSamples } from './autopilotDecisions';
import { tickAutopilot } from './tickAutopilot';
import { decisionInput, decisionRecord, incumbentOf } from './autopilotRecords';
import { decideAutopilot } from './decideAutopilot';

export interface TickDueAutopilotsParameters extends Omit<
  AutopilotDecisionParameters,
  'address' | 'now'
> {
  /** The last wallet of the previous page; absent for the first page. */
  readonly after?: string;
  readonly pageSize: number;
  readonly now: () => Date;
}

export interface TickDueAutopilotsPage {
  /** Due policies on this page. */
  readonly wallets: number;
  /** Hold and blocked decisions kept by this page (a period already ticked keeps none). */
  readonly recorded: number;
  /** Switches, each ticked on its own (its rebalance plan prepared in its transaction). */
  readonly switches: number;
  readonly errors: readonly { readonly wallet: string; readonly message: string }[];
  /** The page's last wallet when the page was full; null at the end. */
  readonly nextCursor: string | null;
}

/**
 * One page of the keeper's autopilot ticks over enabled wallets whose tick is due, in wallet
 * order. The page's positions are read in one statement and its decisions made in memory; every
 * hold or blocked decision is recorded in one statement (a policy changed or disabled since it
 * was read is skipped, a period already ticked keeps its first decision), and each switch runs
 * as a full tick on its own, which prepares its rebalance plan. Safe to run again at any point:
 * a ticked wallet is not due until its next period, and a period keeps one decision.
 */
export async function tickDueAutopilots(
  parameters: TickDueAutopilotsParameters,
): Promise<TickDueAutopilotsPage> {
  const now = parameters.now();
  const reader = parameters.db;
  const policies = await listDueAutopilotPolicies(reader, {
    now,
    ...(parameters.after ? { after: parameters.after } : {}),
    limit: parameters.pageSize,
  });
  const wallets = policies.map((policy) => policy.wallet);
  const [positions, guardrails] = await Promise.all([
    readTrackedPositions(reader, wallets),
    readWalletGuardrailsOf(reader, wallets),
  ]);
  const minSamples = autopilotMinSamples(parameters.venues);
  const errors: { wallet: string; message: string }[] = [];
  const ticks: AutopilotTickRecord[] = [];
  const switching: string[] = [];
  for (const policy of policies) {
    try {
      const held = positions.filter((position) => position.wallet === policy.wallet);
      const incumbent = incumbentOf(held, policy.chain);
      const ruling = decideAutopilot({
        chain: policy.chain,
        opportunities: parameters.opportunities,
        venueAllowlist: policy.venueAllowlist,
        thresholdBps: policy.rebalanceMinDeltaBps,
        incumbent,
        guardrailBlockers: guardrailCheck(
          toGuardrails(guardrails.get(policy.wallet) ?? NO_GUARDRAILS),
          held,
          policy.chain,
          incumbent,
        ),
      });
      if (ruling.outcome === 'switch') {
        switching.push(policy.wallet);
        continue;
      }
      const period = autopilotPeriod(policy.cadence, now);
      const record = decisionRecord({
        wallet: policy.wallet,
        kind: 'tick',
        period: period.key,
        terms: policy,
        minSamples,
        ruling,
      });
      ticks.push({
        decision: { ...decisionInput(record, now), period: period.key },
        policyUpdatedAt: policy.updatedAt,
        nextTickAt: period.nextStartsAt,
      });
    } catch (error) {
      errors.push({ wallet: policy.wallet, message: errorMessage(error) });
    }
  }
  const recorded = await recordAutopilotTicks(reader, ticks);
  for (const wallet of switching) {
    try {
      await tickAutopilot({ ...parameters, address: wallet, now });
    } catch (error) {
      // Disabled since the page was read: nothing to tick, not a failure.
      if (error instanceof EngineError && error.code === 'AUTOPILOT_DISABLED') continue;
      errors.push({ wallet, message: errorMessage(error) });
    }
  }
  return {
    wallets: policies.length,
    recorded,
    switches: switching.length,
    errors,
    nextCursor: policies.length === parameters.pageSize ? (policies.at(-1)?.wallet ?? null) : null,
  };
}
