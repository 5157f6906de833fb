import type { PrismaClientOrTransaction } from './apiKeys';
import type { Prisma } from './generated/prisma/client';

export interface PlanLegInput {
  readonly action: string;
  readonly summary: string;
  readonly amountMicros: bigint;
  readonly settles: boolean;
  /** The unsigned payload, JSON-safe (no bigint). */
  readonly payload: Prisma.InputJsonValue;
}

export interface PlanInput {
  readonly id: string;
  readonly kind: 'deposit' | 'withdraw';
  readonly status: 'prepared' | 'blocked';
  readonly chain: string;
  readonly venueId: string | null;
  readonly owner: string | null;
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
    })),
  );
  await db.$executeRaw`
    WITH inserted AS (
      INSERT INTO plans (id, kind, status, chain, venue_id, owner, amount_micros, fee_micros,
                         request, blockers)
      VALUES (${plan.id}, ${plan.kind}, ${plan.status}, ${plan.chain}, ${plan.venueId},
              ${plan.owner}, ${plan.amountMicros}, ${plan.feeMicros},
              ${JSON.stringify(plan.request)}::jsonb, ${JSON.stringify(plan.blockers)}::jsonb)
      RETURNING id
    )
    INSERT INTO plan_legs (plan_id, leg_index, action, summary, amount_micros, settles, payload)
    SELECT inserted.id, leg.leg_index, leg.action, leg.summary, leg.amount_micros, leg.settles,
           leg.payload
    FROM inserted,
         jsonb_to_recordset(${legs}::jsonb) AS leg(leg_index integer, action text, summary text,
                                                    amount_micros bigint, settles boolean,
                                                    payload jsonb)`;
}
