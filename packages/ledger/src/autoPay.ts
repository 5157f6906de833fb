import type { Books } from './books';
import type { Prisma } from './generated/prisma/client';
import { postJournalEntry } from './journal';
import type { LedgerChain } from './journal';

/** One payee of an auto-pay config, as stored. */
export interface AutoPayPayeeRow {
  readonly payeeId: string;
  readonly address: string;
  readonly weightBps: number;
}

export type AutoPayTrigger = 'after_harvest' | 'manual' | 'threshold';

/** A wallet's auto-pay config (migration 0023). */
export interface AutoPayConfigRow {
  readonly enabled: boolean;
  readonly percentage: number;
  readonly payees: readonly AutoPayPayeeRow[];
  readonly trigger: AutoPayTrigger;
  readonly minAmountMicros: bigint;
  readonly maxPerPayeePerDayMicros: bigint | null;
  readonly dustMicros: bigint;
  readonly emergencyPause: boolean;
  readonly updatedAt: Date;
}

function toConfig(row: {
  enabled: boolean;
  percentage: number;
  payees: Prisma.JsonValue;
  trigger: string;
  minAmountMicros: bigint;
  maxPerPayeePerDayMicros: bigint | null;
  dustMicros: bigint;
  emergencyPause: boolean;
  updatedAt: Date;
}): AutoPayConfigRow {
  return {
    ...row,
    payees: row.payees as unknown as AutoPayPayeeRow[],
    trigger: row.trigger as AutoPayTrigger,
  };
}

/** A wallet's auto-pay config; null when the owner never set one (auto-pay is off). */
export async function readAutoPayConfig(
  db: Books,
  wallet: string,
): Promise<AutoPayConfigRow | null> {
  const row = await db.autoPayConfig.findUnique({ where: { wallet } });
  return row && toConfig(row);
}

/**
 * Takes the wallet's auto-pay config for the rest of this transaction: writers that read the
 * stored config to change part of it (payees) take turns with whole-config writers, so neither
 * overwrites what the other just stored.
 */
export async function lockAutoPayConfig(db: Books, wallet: string): Promise<void> {
  await db.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${`auto-pay:${wallet}`}))) AS held`;
}

/** Stores a wallet's whole config (a PUT replaces it). */
export async function writeAutoPayConfig(
  db: Books,
  wallet: string,
  config: Omit<AutoPayConfigRow, 'updatedAt'>,
  now: Date,
): Promise<AutoPayConfigRow> {
  const fields = {
    ...config,
    payees: config.payees.map((payee) => ({ ...payee })),
    updatedAt: now,
  };
  const row = await db.autoPayConfig.upsert({
    where: { wallet },
    create: { wallet, ...fields },
    update: fields,
  });
  return toConfig(row);
}

/**
 * A venue position's auto-pay yield pool with what guards principal: the yield harvest
 * accrued for payees (hundredths of a micro), what runs committed of it, the staked balance,
 * the principal (confirmed deposits into the position — a rebalance's deposit leg included —
 * less the owner's confirmed withdrawals from it — a rebalance's withdraw leg included —, never
 * below 0) and the amounts open auto-pay withdraw legs are taking out.
 */
export interface AutoPayPool {
  readonly chain: string;
  readonly opportunityId: string;
  readonly venueId: string;
  /** The venue's standard (how its legs are built). */
  readonly standard: string;
  readonly accruedCentimicros: bigint;
  readonly committedMicros: bigint;
  readonly stakedMicros: bigint;
  readonly principalMicros: bigint;
  readonly openWithdrawalsMicros: bigint;
  /**
   * Payees' shares a run withdrew whose transfer leg was released (0041): in the owner's liquid,
   * paid by the next run from there (as far as liquid still holds them) before the venue.
   */
  readonly returnedMicros: bigint;
  /** The wallet's liquid balance on the pool's chain. */
  readonly liquidMicros: bigint;
}

interface PoolRow {
  chain: string;
  opportunity_id: string;
  venue_id: string;
  standard: string;
  accrued: string;
  committed: string;
  staked: string;
  principal: string;
  open_withdrawals: string;
  returned: string;
  liquid: string;
}

/**
 * A wallet's pools, in (chain, opportunity) order. With `lock` (inside a transaction) the pool
 * rows are locked: a harvest accruing and another run committing wait for this one.
 */
export async function readAutoPayPools(
  db: Books,
  wallet: string,
  { lock = false }: { readonly lock?: boolean } = {},
): Promise<AutoPayPool[]> {
  const rows = await db.$queryRawUnsafe<PoolRow[]>(
    `
    SELECT y.chain, y.opportunity_id, v.id AS venue_id, v.standard,
           y.accrued_centimicros::text AS accrued, y.committed_micros::text AS committed,
           y.returned_micros::text AS returned,
           COALESCE((SELECT lq.balance_micros FROM ledger_accounts lq
                     WHERE lq.wallet = y.wallet AND lq.chain = y.chain AND lq.bucket = 'liquid'),
                    0)::text AS liquid,
           COALESCE(a.balance_micros, 0)::text AS staked,
           GREATEST(0, (
             SELECT COALESCE(SUM(CASE WHEN l.effect IN ('fund_staked', 'stake', 'bridged_stake',
                                                        'rebalance_in')
                                      THEN l.settled_amount_micros
                                      ELSE -l.settled_amount_micros END), 0)
             FROM plan_legs l JOIN plans p ON p.id = l.plan_id
             WHERE p.wallet = y.wallet AND COALESCE(l.chain, p.chain) = y.chain
               AND l.venue_id = v.id AND l.status = 'confirmed'
               AND l.effect IN ('fund_staked', 'stake', 'bridged_stake', 'rebalance_in', 'unstake',
                                'rebalance_out')
           ))::text AS principal,
           (SELECT COALESCE(SUM(l.amount_micros), 0)
            FROM auto_pay_runs r JOIN plan_legs l ON l.plan_id = r.plan_id
            WHERE r.wallet = y.wallet AND r.chain = y.chain
              AND r.opportunity_id = y.opportunity_id AND l.effect = 'unstake_yield'
              AND l.status IN ('unsigned', 'submitted') AND l.released_at IS NULL
           )::text AS open_withdrawals
    FROM auto_pay_yield y
    JOIN venues v ON v.opportunity_id = y.opportunity_id
    LEFT JOIN ledger_accounts a
      ON a.wallet = y.wallet AND a.chain = y.chain AND a.bucket = 'staked:' || y.opportunity_id
    WHERE y.wallet = $1
    ORDER BY y.chain, y.opportunity_id
    ${lock ? 'FOR UPDATE OF y' : ''}`,
    wallet,
  );
  return rows.map((row) => ({
    chain: row.chain,
    opportunityId: row.opportunity_id,
    venueId: row.venue_id,
    standard: row.standard,
    accruedCentimicros: BigInt(row.accrued),
    committedMicros: BigInt(row.committed),
    stakedMicros: BigInt(row.staked),
    principalMicros: BigInt(row.principal),
    openWithdrawalsMicros: BigInt(row.open_withdrawals),
    returnedMicros: BigInt(row.returned),
    liquidMicros: BigInt(row.liquid),
  }));
}

/**
 * What each of `addresses` was paid by the wallet's auto-pay since `since`: confirmed transfer
 * legs for what their receipts proved, open ones for their amount; failed, expired and
 * cancelled ones paid nothing.
 */
export async function readAutoPayPaidSince(
  db: Books,
  wallet: string,
  addresses: readonly string[],
  since: Date,
): Promise<Map<string, bigint>> {
  const rows = await db.$queryRaw<{ address: string; paid: string }[]>`
    SELECT o.address,
           SUM(CASE WHEN l.status = 'confirmed' THEN l.settled_amount_micros
                    ELSE o.amount_micros END)::text AS paid
    FROM auto_pay_payouts o
    JOIN plan_legs l ON l.plan_id = o.plan_id AND l.leg_index = o.leg_index
    WHERE o.wallet = ${wallet} AND o.address = ANY(${[...addresses]}::text[])
      AND o.created_at > ${since}
      AND (l.status = 'confirmed' OR (l.status IN ('unsigned', 'submitted')
                                      AND l.released_at IS NULL))
    GROUP BY o.address`;
  return new Map(rows.map((row) => [row.address, BigInt(row.paid)]));
}

/** A payee's transfer leg of a run. */
export interface AutoPayPayoutInput {
  readonly legIndex: number;
  readonly payeeId: string;
  readonly address: string;
  readonly weightBps: number;
  readonly amountMicros: bigint;
}

/**
 * Records a run whose plan (a withdraw leg unless the returned shares pay it all, then one
 * transfer leg per payee) was just inserted in the same transaction: the run, its payouts, and
 * what it commits against the pool. The part paid from shares returned earlier
 * (`fromReturnedMicros`) leaves the pool's returned and is held for the payees at once: liquid →
 * auto_pay, an entry of the plan (what its transfer legs pay from, and what a release gives back).
 */
export async function insertAutoPayRun(
  tx: Books,
  run: {
    readonly planId: string;
    readonly wallet: string;
    readonly chain: string;
    readonly opportunityId: string;
    readonly amountMicros: bigint;
    readonly fromReturnedMicros: bigint;
    readonly payouts: readonly AutoPayPayoutInput[];
    readonly now: Date;
  },
): Promise<void> {
  const { planId, wallet, chain, opportunityId, amountMicros, fromReturnedMicros, now } = run;
  await tx.autoPayRun.create({
    data: { planId, wallet, chain, opportunityId, amountMicros, createdAt: now },
  });
  await tx.autoPayPayout.createMany({
    data: run.payouts.map((payout) => ({ planId, wallet, ...payout, createdAt: now })),
  });
  await tx.$executeRaw`
    UPDATE auto_pay_yield SET committed_micros = committed_micros + ${amountMicros},
                              returned_micros = returned_micros - ${fromReturnedMicros},
                              updated_at = ${now}
    WHERE wallet = ${wallet} AND chain = ${chain} AND opportunity_id = ${opportunityId}`;
  if (fromReturnedMicros > 0n) {
    const at = { wallet, chain: chain as LedgerChain };
    await postJournalEntry(tx, {
      kind: 'auto_pay.reserved',
      dedupeKey: `reserve:${planId}`,
      planId,
      memo: "payees' shares returned by an earlier run, held for this run",
      postings: [
        { account: { ...at, bucket: 'liquid' }, amountMicros: -fromReturnedMicros },
        { account: { ...at, bucket: 'auto_pay' }, amountMicros: fromReturnedMicros },
      ],
    });
  }
}

/** The payee a transfer leg pays, and the position whose yield its run pays. */
export interface AutoPayPayoutTarget {
  readonly payeeId: string;
  readonly address: string;
  readonly opportunityId: string;
}

/** The payee of a transfer leg (settlement reads its receipt for that address); null if none. */
export async function readAutoPayPayout(
  db: Books,
  planId: string,
  legIndex: number,
): Promise<AutoPayPayoutTarget | null> {
  const rows = await db.$queryRaw<AutoPayPayoutTarget[]>`
    SELECT o.payee_id AS "payeeId", o.address, r.opportunity_id AS "opportunityId"
    FROM auto_pay_payouts o JOIN auto_pay_runs r ON r.plan_id = o.plan_id
    WHERE o.plan_id = ${planId} AND o.leg_index = ${legIndex}`;
  return rows[0] ?? null;
}

/** Of `wallets`, those whose auto-pay runs after each harvest (enabled, not paused). */
export async function listAfterHarvestWallets(
  db: Books,
  wallets: readonly string[],
): Promise<string[]> {
  if (wallets.length === 0) return [];
  const rows = await db.$queryRaw<{ wallet: string }[]>`
    SELECT wallet FROM auto_pay_configs
    WHERE wallet = ANY(${[...wallets]}::text[]) AND enabled AND NOT emergency_pause
      AND trigger = 'after_harvest'
    ORDER BY wallet`;
  return rows.map((row) => row.wallet);
}

/** A run with a leg still open (unsigned or submitted): what the owner has left to sign. */
export interface OpenAutoPayRun {
  readonly planId: string;
  readonly chain: string;
  readonly opportunityId: string;
  readonly amountMicros: bigint;
  readonly createdAt: Date;
}

/** The wallet's runs with a leg still open, newest first (at most 20). */
export async function readOpenAutoPayRuns(db: Books, wallet: string): Promise<OpenAutoPayRun[]> {
  return db.$queryRaw<OpenAutoPayRun[]>`
    SELECT r.plan_id AS "planId", r.chain, r.opportunity_id AS "opportunityId",
           r.amount_micros AS "amountMicros", r.created_at AS "createdAt"
    FROM auto_pay_runs r
    WHERE r.wallet = ${wallet}
      AND EXISTS (SELECT 1 FROM plan_legs l
                  WHERE l.plan_id = r.plan_id AND l.effect <> 'none'
                    AND l.status IN ('unsigned', 'submitted') AND l.released_at IS NULL)
    ORDER BY r.created_at DESC, r.plan_id
    LIMIT 20`;
}
