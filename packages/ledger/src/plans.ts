import type { PrismaClientOrTransaction } from './apiKeys';
import type { Prisma } from './generated/prisma/client';

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
}

/** What settling a leg does to the wallet's ledger (see migration 0005_wallet_money). */
export type LegEffect =
  'none' | 'fund_liquid' | 'fund_staked' | 'stake' | 'unstake' | 'exit_liquid';

export type PlanKind = 'deposit' | 'withdraw' | 'route' | 'exit';

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
  readonly legs: readonly PlanLegInput[];
}

/**
 * Stores a plan and its legs in one statement (atomic without a transaction, one round trip);
 * pass a transaction client to compose it with other writes.
 */
export async function insertPlan(db: PrismaClientOrTransaction, plan: PlanInput): Promise<void> {
  const legs = JSON.stringify(
    plan.legs.map((leg, legIndex) => ({
      leg_index: legIndex,
      action: leg.action,
      summary: leg.summary,
      amount_micros: leg.amountMicros.toString(),
      settles: leg.settles,
      payload: leg.payload,
      effect: leg.effect ?? 'none',
      venue_id: leg.venueId ?? null,
    })),
  );
  await db.$executeRaw`
    WITH inserted AS (
      INSERT INTO plans (id, kind, status, chain, venue_id, owner, wallet, amount_micros,
                         fee_micros, request, blockers)
      VALUES (${plan.id}, ${plan.kind}, ${plan.status}, ${plan.chain}, ${plan.venueId},
              ${plan.owner}, ${plan.wallet ?? null}, ${plan.amountMicros}, ${plan.feeMicros},
              ${JSON.stringify(plan.request)}::jsonb, ${JSON.stringify(plan.blockers)}::jsonb)
      RETURNING id
    )
    INSERT INTO plan_legs (plan_id, leg_index, action, summary, amount_micros, settles, payload,
                           effect, venue_id)
    SELECT inserted.id, leg.leg_index, leg.action, leg.summary, leg.amount_micros, leg.settles,
           leg.payload, leg.effect, leg.venue_id
    FROM inserted,
         jsonb_to_recordset(${legs}::jsonb) AS leg(leg_index integer, action text, summary text,
                                                    amount_micros bigint, settles boolean,
                                                    payload jsonb, effect text, venue_id text)`;
}
