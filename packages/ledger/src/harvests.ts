import { randomBytes } from 'node:crypto';
import type { PrismaClientOrTransaction } from './apiKeys';
import type { Prisma } from './generated/prisma/client';
import type { LedgerChain } from './journal';

/** One venue position of a wallet: the unit a harvest measures. */
export interface PositionKey {
  readonly wallet: string;
  readonly chain: LedgerChain;
  readonly opportunityId: string;
}

/** What the ledger holds against a position: the basis a harvest's value is measured from. */
export interface HarvestBasis {
  /** The wallet's staked balance: settled principal plus compounded net yield. */
  readonly stakedMicros: bigint;
  /** Fees booked on the position by earlier harvests: still inside the position on chain. */
  readonly feesRetainedMicros: bigint;
}

export interface HarvestRow extends PositionKey {
  readonly id: string;
  readonly venueId: string;
  readonly entryId: bigint;
  readonly valueMicros: bigint;
  readonly valueAsOf: Date;
  readonly basisMicros: bigint;
  readonly grossMicros: bigint;
  readonly protocolFeeMicros: bigint;
  readonly profitFeeMicros: bigint;
  readonly netMicros: bigint;
}

export const newHarvestId = (): string => `hvst_${randomBytes(16).toString('hex')}`;

/**
 * Serializes harvests of one position until the transaction ends (a transaction-level advisory
 * lock: settlements are not blocked by it, and it takes no ledger row lock out of order).
 */
export async function lockPositionForHarvest(
  tx: Prisma.TransactionClient,
  position: PositionKey,
): Promise<void> {
  const key = `harvest:${position.wallet}:${position.chain}:${position.opportunityId}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/** The position's basis: its staked balance and the fees earlier harvests left in it. */
export async function readHarvestBasis(
  db: PrismaClientOrTransaction,
  position: PositionKey,
): Promise<HarvestBasis> {
  const bucket = `staked:${position.opportunityId}`;
  const rows = await db.$queryRaw<{ staked: bigint; fees: bigint }[]>`
    SELECT
      COALESCE((SELECT balance_micros FROM ledger_accounts
                WHERE wallet = ${position.wallet} AND chain = ${position.chain}
                  AND bucket = ${bucket}), 0)::bigint AS staked,
      COALESCE((SELECT SUM(protocol_fee_micros + profit_fee_micros) FROM harvests
                WHERE wallet = ${position.wallet} AND chain = ${position.chain}
                  AND opportunity_id = ${position.opportunityId}), 0)::bigint AS fees`;
  const row = rows[0];
  return { stakedMicros: row?.staked ?? 0n, feesRetainedMicros: row?.fees ?? 0n };
}

/**
 * Legs of the wallet that move the position and are not final yet (unsigned or submitted,
 * created since `since`): the chain may already show their money while the ledger does not,
 * so the position's value cannot be told apart from yield until they settle.
 */
export async function countOpenPositionLegs(
  db: PrismaClientOrTransaction,
  position: PositionKey & { readonly venueId: string; readonly since: Date },
): Promise<number> {
  const rows = await db.$queryRaw<{ open: bigint }[]>`
    SELECT COUNT(*)::bigint AS open
    FROM plan_legs l JOIN plans p ON p.id = l.plan_id
    WHERE p.wallet = ${position.wallet} AND p.chain = ${position.chain}
      AND l.venue_id = ${position.venueId}
      AND l.effect IN ('fund_staked', 'stake', 'unstake')
      AND l.status IN ('unsigned', 'submitted')
      AND p.created_at >= ${position.since}`;
  return Number(rows[0]?.open ?? 0n);
}

export async function insertHarvest(tx: Prisma.TransactionClient, row: HarvestRow): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO harvests (id, wallet, chain, opportunity_id, venue_id, entry_id, value_micros,
                          value_as_of, basis_micros, gross_micros, protocol_fee_micros,
                          profit_fee_micros, net_micros)
    VALUES (${row.id}, ${row.wallet}, ${row.chain}, ${row.opportunityId}, ${row.venueId},
            ${row.entryId}, ${row.valueMicros}, ${row.valueAsOf}, ${row.basisMicros},
            ${row.grossMicros}, ${row.protocolFeeMicros}, ${row.profitFeeMicros},
            ${row.netMicros})`;
}

/** Wallets with a staked position above zero, in byte order, in pages (the harvest batch). */
export async function listStakedWallets(
  db: PrismaClientOrTransaction,
  { after, limit }: { readonly after?: string; readonly limit: number },
): Promise<string[]> {
  const rows = await db.$queryRaw<{ wallet: string }[]>`
    SELECT DISTINCT wallet COLLATE "C" AS wallet FROM ledger_accounts
    WHERE kind = 'wallet' AND bucket LIKE 'staked:%' AND balance_micros > 0
      AND wallet COLLATE "C" > ${after ?? ''}
    ORDER BY wallet COLLATE "C"
    LIMIT ${limit}`;
  return rows.map((row) => row.wallet);
}
