import {
  computePositionClaim,
  computeVenueSkim,
  computeWithdrawalSkim,
  computeYieldRealisation,
  defaultFeeSchedule,
  grossUpRouterWithdrawal,
  grossUpWithdrawal,
} from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { readTrackedPositions } from '@yieldrouter/ledger';
import type { Books, LegEffect, PlanLegInput } from '@yieldrouter/ledger';
import type {
  Chain,
  LegBuild,
  Opportunity,
  SkimLegRequest,
  VenueOnChain,
} from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { ownerHoldsReceipts } from '../wallet/skimBooking';
import { storedLeg } from './legDocument';

/** Each chain's treasury (`SVC_*_TREASURY`, served by GET /svc/fees); null or absent: unset. */
export type Treasuries = Readonly<Partial<Record<Chain, string | null>>>;

/** What a venue withdrawal asks of the venue and pays the treasury. */
export interface WithdrawSkim {
  /** What the venue pays: the amount asked grossed up by the skim. */
  readonly grossMicros: bigint;
  /** What the owner receives, where the plan priced the skim (the amount asked, or `everything`'s). */
  readonly netMicros?: bigint;
  readonly skim?: SkimLegRequest;
  /**
   * The skim the Solana router pays the treasury inside the withdraw leg, as the plan grossed it
   * up (`grossUpRouterWithdrawal`): what the simulation expects the treasury to receive.
   */
  readonly routerSkimMicros?: bigint;
  /** Kept with the plan (`request.skim`): settlement reads the treasury and the skim there. */
  readonly stored?: { recipient: string; amountMicros: string; grossMicros: string };
}

export interface PlanWithdrawSkimParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly opportunity: Pick<Opportunity, 'chain' | 'opportunityId'>;
  readonly venue: VenueOnChain;
  /** The owner, canonical on the venue's chain (the ledger wallet of the position). */
  readonly owner: string;
  /** What the owner asked to receive. */
  readonly amountMicros: bigint;
  readonly treasuries?: Treasuries | undefined;
  readonly schedule?: FeeSchedule | undefined;
  /**
   * A harvest with `execute: true`: the venue pays everything above the owner's staked balance
   * and the protocol's whole claim goes to the treasury (`computeYieldRealisation`); the amount
   * asked is not read.
   */
  readonly realiseYield?: boolean | undefined;
  /**
   * A rebalance of everything: the whole position leaves (its value read on chain), the claim
   * goes to the treasury and the owner receives the rest (`netMicros`); the amount asked is the
   * fallback when nothing is tracked.
   */
  readonly everything?: boolean | undefined;
}

/**
 * The skim a venue withdrawal carries where the owner holds the receipts (Sui, plain EVM venues;
 * issue #46, docs/design-proposal-skim.md). The protocol's claim on the position is what its
 * harvests retained plus the fees on yield since the last mark (the venue's share price read on
 * chain; unreadable: the books' mark, and settlement owes whatever more the exit shows). An
 * amount the owner's share covers is grossed up so the owner receives exactly it; more than
 * that pays the claim's part of what it takes. Solana's router takes the skim itself; a chain
 * without a treasury configured, or a position without a claim, carries none.
 */
export async function planWithdrawSkim(
  parameters: PlanWithdrawSkimParameters,
): Promise<WithdrawSkim> {
  const { opportunity, owner, amountMicros } = parameters;
  const chain = opportunity.chain;
  const treasury = parameters.treasuries?.[chain];
  // Where the owner holds the receipts the plan carries the skim; Solana's router takes its own.
  const carriesSkim = ownerHoldsReceipts(chain) && Boolean(treasury);
  if (!carriesSkim && !parameters.realiseYield) return throughRouter(parameters);
  const position = (await readTrackedPositions(parameters.db, [owner])).find(
    (row) => row.chain === chain && row.opportunityId === opportunity.opportunityId,
  );
  if (!position || position.shares === 0n) {
    return { grossMicros: parameters.realiseYield ? 0n : amountMicros };
  }
  const valueMicros = await readValue(parameters, position.shares, position.markMicros);
  const schedule = parameters.schedule ?? defaultFeeSchedule;
  const split = parameters.realiseYield
    ? computeYieldRealisation({
        valueMicros,
        markMicros: position.markMicros,
        feesRetainedMicros: position.feesRetainedMicros,
        schedule,
      })
    : withdrawalSplit(
        parameters.everything ? valueMicros : amountMicros,
        valueMicros,
        position,
        schedule,
      );
  // Solana's router takes its skim itself. A chain without a treasury asks none: a harvest there
  // realises only the owner's net yield, leaving the protocol's claim in the position.
  if (!carriesSkim || !treasury || split.skimMicros === 0n) {
    const ownerOnly = parameters.realiseYield && ownerHoldsReceipts(chain);
    return { grossMicros: ownerOnly ? split.netMicros : split.grossMicros };
  }
  return {
    grossMicros: split.grossMicros,
    netMicros: split.netMicros,
    skim: { recipient: treasury, amountMicros: split.skimMicros },
    stored: {
      recipient: treasury,
      amountMicros: formatMicros(split.skimMicros),
      grossMicros: formatMicros(split.grossMicros),
    },
  };
}

/**
 * A withdrawal of `amountMicros`: grossed up when the owner's share covers it (the owner receives
 * exactly it), else what was asked, paying the claim's part of it.
 */
function withdrawalSplit(
  amountMicros: bigint,
  valueMicros: bigint,
  position: { markMicros: bigint; feesRetainedMicros: bigint },
  schedule: FeeSchedule,
): { grossMicros: bigint; skimMicros: bigint; netMicros: bigint } {
  const { claimMicros } = computePositionClaim({
    valueMicros,
    markMicros: position.markMicros,
    feesRetainedMicros: position.feesRetainedMicros,
    schedule,
  });
  if (claimMicros === 0n)
    return { grossMicros: amountMicros, skimMicros: 0n, netMicros: amountMicros };
  if (amountMicros <= valueMicros - claimMicros) {
    return grossUpWithdrawal({
      netMicros: amountMicros,
      positionValueMicros: valueMicros,
      claimMicros,
    });
  }
  const { skimMicros } = computeWithdrawalSkim({
    grossMicros: amountMicros < valueMicros ? amountMicros : valueMicros,
    positionValueMicros: valueMicros,
    claimMicros,
  });
  return { grossMicros: amountMicros, skimMicros, netMicros: amountMicros - skimMicros };
}

/**
 * A withdrawal through the Solana router, grossed up: the router skims the yield above the
 * principal it recorded for the owner (on chain, `readSkimBasis`), so the venue pays the smallest
 * amount whose net is what the owner asked (`grossUpRouterWithdrawal`), its skim kept for the
 * simulation (`routerSkimMicros`). Unreadable, or more than the owner's net of everything: what
 * was asked.
 */
async function throughRouter(parameters: PlanWithdrawSkimParameters): Promise<WithdrawSkim> {
  const { adapters, opportunity, venue, owner, amountMicros } = parameters;
  const asked = { grossMicros: amountMicros };
  try {
    const basis = await adapters[opportunity.chain].readSkimBasis?.(venue, owner);
    if (!basis || basis.shares === 0n) return asked;
    const reading = await adapters[opportunity.chain].readPosition(venue, owner, basis.shares);
    if (reading.status !== 'ok') return asked;
    const split = grossUpRouterWithdrawal({
      netMicros: amountMicros,
      principalMicros: basis.principalMicros,
      valueMicros: reading.sharesValueMicros,
      skimBps: basis.skimBps,
    });
    return split.netMicros === amountMicros
      ? { grossMicros: split.grossMicros, routerSkimMicros: split.skimMicros }
      : asked;
  } catch {
    return asked;
  }
}

/**
 * The skim the Solana router takes on a withdrawal of `amountMicros` that is not grossed up (an
 * auto-pay run's withdraw leg): the yield above the principal the withdrawn part carries (pro
 * rata to the position's value read on chain, as `grossUpRouterWithdrawal` takes it), × the
 * registry's bps, rounded down (`computeVenueSkim`). For the simulation's `legSkims`: the owner
 * receives the leg's amount less it. 0 where the chain has no router skim, or it cannot be read.
 */
export async function routerSkimOn(
  parameters: Pick<PlanWithdrawSkimParameters, 'adapters' | 'opportunity' | 'venue' | 'owner'>,
  amountMicros: bigint,
): Promise<bigint> {
  const { adapters, opportunity, venue, owner } = parameters;
  try {
    const basis = await adapters[opportunity.chain].readSkimBasis?.(venue, owner);
    if (!basis || basis.shares === 0n) return 0n;
    const reading = await adapters[opportunity.chain].readPosition(venue, owner, basis.shares);
    if (reading.status !== 'ok' || reading.sharesValueMicros < amountMicros) return 0n;
    return computeVenueSkim({
      principalMicros: basis.principalMicros,
      sharesHeld: reading.sharesValueMicros,
      sharesBurnt: amountMicros,
      receivedMicros: amountMicros,
      skimBps: basis.skimBps,
    }).skimMicros;
  } catch {
    return 0n;
  }
}

/** What the tracked shares are worth at the venue's price now; the books' mark when unreadable. */
async function readValue(
  { adapters, opportunity, venue, owner }: PlanWithdrawSkimParameters,
  shares: bigint,
  markMicros: bigint,
): Promise<bigint> {
  try {
    const reading = await adapters[opportunity.chain].readPosition(venue, owner, shares);
    return reading.status === 'ok' ? reading.sharesValueMicros : markMicros;
  } catch {
    return markMicros;
  }
}

/**
 * The plan document's skim line (a prepared plan that carries one): the treasury, what of the
 * withdrawal goes to it and what the venue pays.
 */
export const skimDisclosure = (skim: WithdrawSkim | undefined, build: LegBuild) =>
  skim?.stored && build.status === 'prepared'
    ? {
        skim: {
          treasury: skim.stored.recipient,
          skimMicros: skim.stored.amountMicros,
          grossMicros: skim.stored.grossMicros,
        },
      }
    : {};

/**
 * The skim a withdraw leg pays the treasury inside its own transaction, by the leg's index (the
 * simulation's `legSkims`): the Solana router's as the plan grossed it up, or the plan's skim
 * where the withdraw leg splits it off itself (Sui); none where the skim is a leg of its own
 * (EVM's transfer, effect `skim`) or there is none.
 */
export function inlineSkimOf(
  skim: WithdrawSkim | undefined,
  legs: readonly PlanLegInput[],
): ReadonlyMap<number, bigint> {
  const index = legs.findIndex((leg) => leg.action === 'withdraw');
  if (index < 0 || legs.some((leg) => leg.effect === 'skim')) return new Map();
  const amount = skim?.routerSkimMicros ?? (skim?.stored ? BigInt(skim.stored.amountMicros) : 0n);
  return amount > 0n ? new Map([[index, amount]]) : new Map();
}

/**
 * A venue withdrawal's legs with its skim: the venue leg settles the exit (`exit`: a withdraw
 * plan's `unstake`, a rebalance's `rebalance_out`), the transfer to the treasury the skim.
 */
export const skimmedLegs = (build: LegBuild, exit: LegEffect, venueId: string) =>
  build.status === 'prepared'
    ? build.legs.map((leg) =>
        leg.action === 'transfer' ? storedLeg(leg, 'skim', null) : storedLeg(leg, exit, venueId),
      )
    : [];
