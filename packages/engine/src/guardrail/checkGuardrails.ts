import { bpsOf, defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { Blocker, Chain } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';

/** A wallet's guardrails in code (bigint money); null = no limit. */
export interface Guardrails {
  readonly allowedChains: readonly Chain[] | null;
  /** Opportunity ids money may enter. */
  readonly venueAllowlist: readonly string[] | null;
  /** Opportunity id → the most of the wallet's staked principal on its chain it may hold. */
  readonly maxAllocationBps: Readonly<Record<string, number>>;
  readonly maxPerOpportunityMicros: bigint | null;
  readonly minNetApyBps: number | null;
}

/** Money about to enter one opportunity (a route with stake, a deposit, a rebalance's target). */
export interface GuardrailProposal {
  readonly chain: Chain;
  readonly opportunityId: string;
  /** What enters the opportunity. */
  readonly amountMicros: bigint;
  /** The wallet's staked balance in the opportunity now. */
  readonly stakedInOpportunityMicros: bigint;
  /** The wallet's staked balance on the chain now, every opportunity. */
  readonly stakedOnChainMicros: bigint;
  /** What leaves another opportunity on the same chain in the same plan (a rebalance). */
  readonly leavingOnChainMicros?: bigint;
  /** The opportunity's live gross APY in bps; null when unknown. */
  readonly grossApyBps: number | null;
}

export interface CheckGuardrailsOptions {
  /** The fee schedule whose yield skim makes gross APY net. */
  readonly schedule?: FeeSchedule;
  /** The request field the amount came from (named by the amount blockers). */
  readonly amountField?: string;
}

/** A gross APY net of the schedule's yield skim (the skim rounds down, as every fee does). */
export function netApyBps(grossApyBps: number, schedule: FeeSchedule = defaultFeeSchedule) {
  if (grossApyBps <= 0) return grossApyBps;
  return grossApyBps - Number(bpsOf(BigInt(grossApyBps), schedule.yieldSkimBps));
}

/** `allowedChains` alone: money onto `chain` (a route without stake names no opportunity). */
export function chainGuardrailBlockers(guardrails: Guardrails, chain: Chain): Blocker[] {
  if (!guardrails.allowedChains || guardrails.allowedChains.includes(chain)) return [];
  return [
    blocker('guardrail_chain_not_allowed', {
      field: 'guardrails.allowedChains',
      details: { chain, allowedChains: guardrails.allowedChains.join(',') },
    }),
  ];
}

/**
 * Why a proposal breaks the wallet's guardrails, as named blockers (empty when it passes).
 * Pure: the caller reads the balances and the APY. After the move the opportunity holds
 * `staked + amount`, the chain `stakedOnChain + amount − leaving`; `maxAllocationBps` bounds the
 * first as a share of the second (so a first deposit into an opportunity capped below 10000
 * bps is refused: it would hold everything on the chain). An unknown APY never passes
 * `minNetApyBps`. Exits are never checked (`ownerExitAlways`).
 *
 * @example
 * checkGuardrails({ ...NO_LIMITS, allowedChains: ['sui'] }, { chain: 'solana', … })
 * // [{ code: 'guardrail_chain_not_allowed', … }]
 */
export function checkGuardrails(
  guardrails: Guardrails,
  proposal: GuardrailProposal,
  options: CheckGuardrailsOptions = {},
): Blocker[] {
  const amountField = options.amountField ?? 'amountMicros';
  const { chain, opportunityId } = proposal;
  const blockers = chainGuardrailBlockers(guardrails, chain);
  if (guardrails.venueAllowlist && !guardrails.venueAllowlist.includes(opportunityId)) {
    blockers.push(
      blocker('guardrail_venue_not_allowed', {
        field: 'guardrails.venueAllowlist',
        details: { opportunityId },
      }),
    );
  }
  const after = proposal.stakedInOpportunityMicros + proposal.amountMicros;
  const cap = guardrails.maxPerOpportunityMicros;
  if (cap !== null && after > cap) {
    blockers.push(
      blocker('guardrail_max_per_opportunity', {
        field: amountField,
        details: {
          opportunityId,
          maxPerOpportunityMicros: formatMicros(cap),
          afterMicros: formatMicros(after),
        },
      }),
    );
  }
  const bps = guardrails.maxAllocationBps[opportunityId];
  if (bps !== undefined) {
    const chainAfter =
      proposal.stakedOnChainMicros + proposal.amountMicros - (proposal.leavingOnChainMicros ?? 0n);
    if (after * 10_000n > BigInt(bps) * chainAfter) {
      blockers.push(
        blocker('guardrail_max_allocation', {
          field: amountField,
          details: {
            opportunityId,
            maxAllocationBps: String(bps),
            afterMicros: formatMicros(after),
            stakedOnChainAfterMicros: formatMicros(chainAfter),
          },
        }),
      );
    }
  }
  const minimum = guardrails.minNetApyBps;
  if (minimum !== null) {
    const net =
      proposal.grossApyBps === null ? null : netApyBps(proposal.grossApyBps, options.schedule);
    if (net === null || net < minimum) {
      blockers.push(
        blocker('guardrail_min_net_apy', {
          field: 'guardrails.minNetApyBps',
          details: {
            opportunityId,
            minNetApyBps: String(minimum),
            netApyBps: net === null ? 'unknown' : String(net),
          },
        }),
      );
    }
  }
  return blockers;
}
