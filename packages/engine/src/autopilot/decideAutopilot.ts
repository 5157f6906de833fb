import type {
  AutopilotCandidate,
  AutopilotChain,
  AutopilotIncumbent,
  AutopilotOutcome,
  AutopilotReason,
  AutopilotVerdict,
  Opportunity,
} from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { byPriority } from '../venues/rankOpportunities';

/** What the rule reads of an opportunity. */
export type AutopilotOpportunity = Pick<
  Opportunity,
  | 'opportunityId'
  | 'venueId'
  | 'protocol'
  | 'chain'
  | 'ready'
  | 'apyMean30dBps'
  | 'apyMean30dSamples'
  | 'grossApyBps'
  | 'wave'
  | 'priority'
>;

/** The wallet's staked position the rule may move (its largest on the policy's chain). */
export interface AutopilotPosition {
  readonly opportunityId: string;
  readonly venueId: string;
  readonly stakedMicros: bigint;
}

export interface DecideAutopilotParameters {
  readonly chain: AutopilotChain;
  readonly opportunities: readonly AutopilotOpportunity[];
  /** Opportunity ids the policy allows; empty = every opportunity of the chain. */
  readonly venueAllowlist: readonly string[];
  /** The least gain in 30-day mean bps that switches (700 = 7 percentage points). */
  readonly thresholdBps: number;
  readonly incumbent: AutopilotPosition | null;
  /** The blocker codes of the wallet's guardrails an opportunity fails (none: not checked). */
  readonly guardrailBlockers?: (opportunity: AutopilotOpportunity) => readonly string[];
}

export interface AutopilotRuling {
  readonly candidates: AutopilotCandidate[];
  readonly incumbent: AutopilotIncumbent | null;
  readonly challenger: AutopilotCandidate | null;
  readonly deltaBps: number | null;
  readonly outcome: AutopilotOutcome;
  readonly reason: AutopilotReason;
  readonly explanation: string;
}

/** The first rule a candidate fails, in the order the record reports them. */
function verdictOf(candidate: Omit<AutopilotCandidate, 'verdict' | 'rank'>): AutopilotVerdict {
  if (!candidate.allowlisted) return 'not_allowlisted';
  if (candidate.guardrailBlockers.length > 0) return 'guardrail_blocked';
  if (!candidate.ready) return 'not_ready';
  if (candidate.apyMean30dBps === null) return 'mean_unknown';
  return 'eligible';
}

/**
 * The chain's opportunities as the rule sees them: eligible ones first, best 30-day mean first
 * (ties in catalog order) and ranked from 1; then the others in catalog order, unranked.
 */
export function rankAutopilotCandidates(
  parameters: Omit<DecideAutopilotParameters, 'thresholdBps' | 'incumbent'>,
): AutopilotCandidate[] {
  const allowed = new Set(parameters.venueAllowlist);
  const entries = parameters.opportunities
    .filter((entry) => entry.chain === parameters.chain)
    .sort(byPriority)
    .map((entry) => {
      const facts = {
        opportunityId: entry.opportunityId,
        venueId: entry.venueId,
        protocol: entry.protocol,
        ready: entry.ready,
        apyMean30dBps: entry.apyMean30dBps,
        apyMean30dSamples: entry.apyMean30dSamples,
        allowlisted: allowed.size === 0 || allowed.has(entry.opportunityId),
        guardrailBlockers: [...(parameters.guardrailBlockers?.(entry) ?? [])],
      };
      return { ...facts, verdict: verdictOf(facts) };
    });
  // Array.prototype.sort is stable: equal means keep catalog order.
  const eligible = entries
    .filter((entry) => entry.verdict === 'eligible')
    .sort((a, b) => (b.apyMean30dBps ?? 0) - (a.apyMean30dBps ?? 0))
    .map((entry, index) => ({ ...entry, rank: index + 1 }));
  const others = entries
    .filter((entry) => entry.verdict !== 'eligible')
    .map((entry) => ({ ...entry, rank: null }));
  return [...eligible, ...others];
}

const pp = (bps: number) => `${(bps / 100).toFixed(2)} pp`;
const named = (entry: { venueId: string; apyMean30dBps: number | null }) =>
  `${entry.venueId} (30-day mean ${entry.apyMean30dBps === null ? 'unknown' : `${entry.apyMean30dBps} bps`})`;

/**
 * The autopilot's rule, a pure function of its inputs: rank the ready opportunities of the
 * chain by 30-day mean APY (a null mean never ranks; outside the allowlist or failing the
 * guardrails never wins), and switch from the incumbent only when the best other candidate
 * beats it by at least `thresholdBps`. Without a staked position on the chain it holds
 * (`no_position`): the autopilot moves staked money and never deposits liquid money. An
 * incumbent the policy no longer allows (allowlist, guardrails) is left for the best candidate
 * whatever the gap; an incumbent without a rating (not ready, unknown mean) is held, since the
 * gap cannot be measured.
 *
 * @example
 * decideAutopilot({ chain: 'sui', opportunities, venueAllowlist: [], thresholdBps: 700,
 *   incumbent: { opportunityId, venueId: 'navi', stakedMicros: 5_000_000n } }).outcome // 'hold'
 */
export function decideAutopilot(parameters: DecideAutopilotParameters): AutopilotRuling {
  const candidates = rankAutopilotCandidates(parameters);
  const eligible = candidates.filter((entry) => entry.verdict === 'eligible');
  const threshold = parameters.thresholdBps;
  const position = parameters.incumbent;
  const ruling = (
    outcome: AutopilotOutcome,
    reason: AutopilotReason,
    challenger: AutopilotCandidate | null,
    incumbent: AutopilotIncumbent | null,
    explanation: string,
  ): AutopilotRuling => {
    const deltaBps =
      challenger?.apyMean30dBps != null && incumbent?.apyMean30dBps != null
        ? challenger.apyMean30dBps - incumbent.apyMean30dBps
        : null;
    return { candidates, incumbent, challenger, deltaBps, outcome, reason, explanation };
  };
  const leader = eligible[0] ?? null;
  if (!position) {
    return leader
      ? ruling(
          'hold',
          'no_position',
          leader,
          null,
          `Nothing staked on ${parameters.chain}: the autopilot moves staked money only, so it ` +
            `holds; the leader is ${named(leader)}.`,
        )
      : ruling(
          'blocked',
          'no_eligible_candidate',
          null,
          null,
          `Nothing staked on ${parameters.chain}, and no opportunity there is eligible.`,
        );
  }
  const own = candidates.find((entry) => entry.opportunityId === position.opportunityId);
  const incumbent: AutopilotIncumbent = {
    opportunityId: position.opportunityId,
    venueId: position.venueId,
    stakedMicros: formatMicros(position.stakedMicros),
    apyMean30dBps: own?.apyMean30dBps ?? null,
    // A position on a venue no longer listed on the chain cannot be rated.
    verdict: own?.verdict ?? 'not_ready',
  };
  const challenger = eligible.find((entry) => entry.opportunityId !== position.opportunityId);
  if (!challenger) {
    return incumbent.verdict === 'eligible'
      ? ruling('hold', 'incumbent_leads', null, incumbent, `${named(incumbent)} has no challenger.`)
      : ruling(
          'blocked',
          'no_eligible_candidate',
          null,
          incumbent,
          `No opportunity on ${parameters.chain} is eligible; ${incumbent.venueId} stays.`,
        );
  }
  if (incumbent.verdict === 'not_allowlisted' || incumbent.verdict === 'guardrail_blocked') {
    return ruling(
      'switch',
      'incumbent_not_eligible',
      challenger,
      incumbent,
      `${incumbent.venueId} is no longer allowed by the policy (${incumbent.verdict}): switch ` +
        `to the best eligible, ${named(challenger)}.`,
    );
  }
  if (incumbent.verdict !== 'eligible' || incumbent.apyMean30dBps === null) {
    return ruling(
      'hold',
      'incumbent_unrated',
      challenger,
      incumbent,
      `${named(incumbent)} cannot be rated (${incumbent.verdict}): the gap to ` +
        `${named(challenger)} is unknown, so it holds.`,
    );
  }
  const gap = (challenger.apyMean30dBps ?? 0) - incumbent.apyMean30dBps;
  if (gap <= 0) {
    return ruling(
      'hold',
      'incumbent_leads',
      challenger,
      incumbent,
      `${named(incumbent)} leads; the best challenger is ${named(challenger)}.`,
    );
  }
  return gap >= threshold
    ? ruling(
        'switch',
        'challenger_clears_threshold',
        challenger,
        incumbent,
        `${named(challenger)} beats ${named(incumbent)} by ${pp(gap)}, at least the ` +
          `${pp(threshold)} threshold: switch.`,
      )
    : ruling(
        'hold',
        'below_threshold',
        challenger,
        incumbent,
        `${named(challenger)} beats ${named(incumbent)} by ${pp(gap)}, below the ` +
          `${pp(threshold)} threshold: hold.`,
      );
}
