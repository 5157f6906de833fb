import type { Books } from './books';
import type { BridgeTransferFields } from './bridgeTransfers';
import type { Prisma } from './generated/prisma/client';
import type { LegStatus } from './legs';

export interface PlanLegInput {
  readonly action: string;
  readonly summary: string;
  readonly amountMicros: bigint;
  readonly settles: boolean;
  /** The unsigned payload, JSON-safe (no bigint). */
  readonly payload: Prisma.InputJsonValue;
  /** What settling the leg does to the ledger (migration 0005); `none` by default. */
  readonly effect?: LegEffect;
  /** The venue the leg moves money into or out of; omitted for the router. */
  readonly venueId?: string | null;
  /** The amounts a receipt may prove without review; the quoted amount when omitted. */
  readonly minSettleMicros?: bigint;
  readonly maxSettleMicros?: bigint;
  /** The leg's chain when it is not the plan's (a cross-chain deposit's bridge legs, 0034). */
  readonly chain?: string;
}

/** What settling a leg does to the wallet's ledger (see migration 0005_wallet_money). */
export type LegEffect =
  | 'none'
  | 'fund_liquid'
  | 'fund_staked'
  | 'stake'
  | 'unstake'
  | 'exit_liquid'
  | 'swap'
  /** Gas sponsorship's unwrap leg: wrapped native out of liquid, native in (migration 0029). */
  | 'unwrap'
  /** A swap from the native token's wrap leg: native out of liquid, wrapped native in (0056). */
  | 'wrap'
  // Rebalance (migration 0021): out of one venue into pending_in, then into another venue.
  | 'rebalance_out'
  | 'rebalance_in'
  /** Auto-pay's withdraw leg: staked → auto_pay (migration 0023). */
  | 'unstake_yield'
  /** Auto-pay's transfer leg to a payee: auto_pay → external. */
  | 'pay_out'
  // Bridges (migration 0026): the burn moves what it burned into in_flight on the source.
  | 'bridge_burn'
  // The service's bridge fee transfer (migration 0032): the chain → fees:protocol.
  | 'bridge_fee'
  // A cross-chain deposit's deposit leg (migration 0034): liquid, credited by the delivery of
  // the plan's bridge, → the venue; it settles only once the bridge delivered enough.
  | 'bridged_stake'
  /** The skim to the chain's treasury (migration 0055): fees:receivable → fees:protocol. */
  | 'skim';

/** A plan's `simulation` document as served, its status and (simulated) its digest. */
export interface PlanSimulationInput {
  readonly status: 'simulated' | 'unavailable';
  readonly digest: string | null;
  readonly document: Prisma.InputJsonObject;
  /** Who is who to the plan, kept while a leg is `deferred` (0068); absent otherwise. */
  readonly deferredRoles?: Prisma.InputJsonObject;
}

export type PlanKind =
  | 'deposit'
  | 'withdraw'
  | 'route'
  | 'exit'
  | 'swap'
  | 'rebalance'
  | 'auto_pay'
  | 'gas_sponsor'
  | 'bridge';

export interface PlanInput {
  readonly id: string;
  readonly kind: PlanKind;
  readonly status: 'prepared' | 'blocked';
  readonly chain: string;
  readonly venueId: string | null;
  readonly owner: string | null;
  /** The ledger wallet settlement moves; null for plans nobody's ledger follows yet. */
  readonly wallet?: string | null;
  readonly amountMicros: bigint;
  readonly feeMicros: bigint;
  readonly request: Prisma.InputJsonValue;
  readonly blockers: Prisma.InputJsonValue[];
  /** Swap plans (and only they): tokens, quote and fee lines, as the plan document shows them. */
  readonly swap?: Prisma.InputJsonValue;
  readonly legs: readonly PlanLegInput[];
  /** When the plan was prepared (the time its document shows); the database clock by default. */
  readonly createdAt?: Date;
  /** What a prepared bridge (or a deposit that bridges first) moves: stored with the plan. */
  readonly bridgeTransfer?: BridgeTransferFields;
  /** The plan's simulated outcome (issue 44), stored with it in the same statement. */
  readonly simulation?: PlanSimulationInput;
}

/** A leg as stored, with what the chain said about it so far. */
export interface StoredPlanLeg {
  readonly legIndex: number;
  readonly action: string;
  readonly summary: string;
  readonly amountMicros: bigint;
  readonly settles: boolean;
  /** The unsigned payload as prepared (`encoding`, `transaction`, …). */
  readonly payload: Prisma.JsonValue;
  readonly effect: LegEffect;
  readonly venueId: string | null;
  readonly status: LegStatus;
  readonly txId: string | null;
  readonly settledAmountMicros: bigint | null;
  /** The venue shares the receipt proved (venue legs). */
  readonly shares: bigint | null;
  readonly failureReason: string | null;
  /** Why the settled amount needs a person's review (outside the leg's bounds). */
  readonly reviewReason: string | null;
  readonly settledAt: Date | null;
  /** When the reservation went back (expired or cancelled). */
  readonly releasedAt: Date | null;
  readonly updatedAt: Date;
  /** The chain the leg runs on: its own (0034) or its plan's. */
  readonly chain: string;
}

/** A plan as stored, with its venue's opportunity id and its legs in order. */
export interface StoredPlan {
  readonly id: string;
  readonly kind: PlanKind;
  readonly status: 'prepared' | 'blocked';
  readonly chain: string;
  readonly venueId: string | null;
  readonly opportunityId: string | null;
  readonly owner: string | null;
  readonly wallet: string | null;
  readonly amountMicros: bigint;
  readonly feeMicros: bigint;
  readonly request: Prisma.JsonValue;
  readonly blockers: Prisma.JsonValue;
  /** Swap plans: what `PlanInput.swap` stored; null for the other kinds. */
  readonly swap: Prisma.JsonValue;
  /** True once the server broadcast one of its legs and holds the chain's digest. */
  readonly submitted: boolean;
  readonly createdAt: Date;
  readonly legs: readonly StoredPlanLeg[];
}

interface PlanRow {
  id: string;
  kind: PlanKind;
  status: 'prepared' | 'blocked';
  chain: string;
  venue_id: string | null;
  opportunity_id: string | null;
  owner: string | null;
  wallet: string | null;
  amount_micros: bigint;
  fee_micros: bigint;
  request: Prisma.JsonValue;
  blockers: Prisma.JsonValue;
  swap: Prisma.JsonValue;
  submitted: boolean;
  created_at: Date;
}

interface PlanLegRow {
  leg_index: number;
  action: string;
  summary: string;
  amount_micros: bigint;
  settles: boolean;
  payload: Prisma.JsonValue;
  effect: LegEffect;
  venue_id: string | null;
  status: StoredPlanLeg['status'];
  tx_id: string | null;
  settled_amount_micros: bigint | null;
  shares: string | null;
  failure_reason: string | null;
  review_reason: string | null;
  settled_at: Date | null;
  released_at: Date | null;
  updated_at: Date;
  chain: string | null;
}

/** One plan with its legs, or undefined for an unknown id. */
export async function findPlan(db: Books, planId: string): Promise<StoredPlan | undefined> {
  const [plan] = await db.$queryRaw<PlanRow[]>`
    SELECT p.id, p.kind, p.status, p.chain, p.venue_id, v.opportunity_id, p.owner, p.wallet,
           p.amount_micros, p.fee_micros, p.request, p.blockers, p.swap, p.submitted, p.created_at
      FROM plans p LEFT JOIN venues v ON v.id = p.venue_id
     WHERE p.id = ${planId}`;
  if (!plan) return undefined;
  const legs = await db.$queryRaw<PlanLegRow[]>`
    SELECT leg_index, action, summary, amount_micros, settles, payload, effect, venue_id, status,
           tx_id, settled_amount_micros, shares::text AS shares, failure_reason, review_reason,
           settled_at, released_at, updated_at, chain
      FROM plan_legs WHERE plan_id = ${planId} ORDER BY leg_index`;
  return {
    id: plan.id,
    kind: plan.kind,
    status: plan.status,
    chain: plan.chain,
    venueId: plan.venue_id,
    opportunityId: plan.opportunity_id,
    owner: plan.owner,
    wallet: plan.wallet,
    amountMicros: plan.amount_micros,
    feeMicros: plan.fee_micros,
    request: plan.request,
    blockers: plan.blockers,
    swap: plan.swap,
    submitted: plan.submitted,
    createdAt: plan.created_at,
    legs: legs.map((leg) => ({
      legIndex: leg.leg_index,
      action: leg.action,
      summary: leg.summary,
      amountMicros: leg.amount_micros,
      settles: leg.settles,
      payload: leg.payload,
      effect: leg.effect,
      venueId: leg.venue_id,
      status: leg.status,
      txId: leg.tx_id,
      settledAmountMicros: leg.settled_amount_micros,
      shares: leg.shares === null ? null : BigInt(leg.shares),
      failureReason: leg.failure_reason,
      reviewReason: leg.review_reason,
      chain: leg.chain ?? plan.chain,
      settledAt: leg.settled_at,
      releasedAt: leg.released_at,
      updatedAt: leg.updated_at,
    })),
  };
}

/**
 * The ids of prepared, unsubmitted deposit plans into `venueId` by `owner` for `amountMicros`,
 * newest first; at most `limit` (the execute alias shape needs to know only whether one fits).
 */
export async function findOpenDepositPlans(
  db: Books,
  match: { venueId: string; owner: string; amountMicros: bigint; limit: number },
): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM plans
     WHERE kind = 'deposit' AND status = 'prepared' AND NOT submitted
       AND venue_id = ${match.venueId} AND owner = ${match.owner}
       AND amount_micros = ${match.amountMicros}
     ORDER BY created_at DESC LIMIT ${match.limit}`;
  return rows.map((row) => row.id);
}
