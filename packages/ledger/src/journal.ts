import type { PrismaClientOrTransaction } from './apiKeys';
import type { Prisma, PrismaClient } from './generated/prisma/client';

export type LedgerChain = 'sui' | 'solana' | 'base' | 'arbitrum';

/** What a wallet owns on one chain. `staked:<opportunityId>` per venue position. */
export type WalletBucket =
  'liquid' | 'pending_in' | 'pending_out' | 'in_flight' | `staked:${string}`;

/** An account: a wallet's bucket on a chain, or a system account. */
export type AccountRef =
  | { readonly wallet: string; readonly chain: LedgerChain; readonly bucket: WalletBucket }
  /** The outside world on a chain: money in from the chain is credited against it. */
  | { readonly system: 'external'; readonly chain: LedgerChain }
  /** Protocol fees (the yield skim), across chains. */
  | { readonly system: 'fees:protocol' };

export interface PostingInput {
  readonly account: AccountRef;
  /** Positive credits the account, negative debits it. Never 0. */
  readonly amountMicros: bigint;
}

export interface JournalEntryInput {
  readonly kind: string;
  /** Same key → posted once; a second call is a replay that posts nothing. */
  readonly dedupeKey?: string;
  readonly planId?: string;
  readonly legIndex?: number;
  readonly txId?: string;
  readonly memo?: string;
  readonly postings: readonly PostingInput[];
}

export interface PostedEntry {
  readonly entryId: bigint;
  /** True when `dedupeKey` had already been posted: nothing was written this time. */
  readonly replay: boolean;
}

/** A ledger write refused before anything was written. */
export class LedgerError extends Error {
  override readonly name = 'LedgerError';
  constructor(
    readonly code: 'UNBALANCED' | 'INSUFFICIENT_BALANCE' | 'INVALID_POSTING',
    message: string,
    /** The account short of funds, for INSUFFICIENT_BALANCE. */
    readonly account?: AccountRef,
  ) {
    super(message);
  }
}

interface AccountKey {
  readonly kind: 'wallet' | 'system';
  readonly wallet: string | null;
  readonly chain: string;
  readonly bucket: string;
}

const STAKED = /^staked:svcop[0-9a-f]{24}$/;

function keyOf(ref: AccountRef): AccountKey {
  if ('wallet' in ref) {
    const plain = ['liquid', 'pending_in', 'pending_out', 'in_flight'].includes(ref.bucket);
    if (!plain && !STAKED.test(ref.bucket)) {
      throw new LedgerError('INVALID_POSTING', `unknown bucket ${ref.bucket}`);
    }
    return { kind: 'wallet', wallet: ref.wallet, chain: ref.chain, bucket: ref.bucket };
  }
  if (ref.system === 'external') {
    return { kind: 'system', wallet: null, chain: ref.chain, bucket: 'external' };
  }
  return { kind: 'system', wallet: null, chain: 'all', bucket: 'fees:protocol' };
}

const label = (key: AccountKey) =>
  key.wallet === null ? `${key.bucket}:${key.chain}` : `${key.wallet}/${key.chain}/${key.bucket}`;

/** Checks an entry before any SQL: at least two postings, none zero, summing to zero. */
export function assertBalanced(postings: readonly PostingInput[]): void {
  if (postings.length < 2) {
    throw new LedgerError('UNBALANCED', 'a journal entry needs at least two postings');
  }
  let total = 0n;
  for (const posting of postings) {
    if (posting.amountMicros === 0n) {
      throw new LedgerError('INVALID_POSTING', 'a posting of 0 moves nothing');
    }
    total += posting.amountMicros;
  }
  if (total !== 0n) throw new LedgerError('UNBALANCED', `postings sum to ${total}, not 0`);
}

/**
 * Posts one balanced journal entry. Must run inside a transaction (`runLedgerTransaction`):
 * the accounts it touches are created if new, then locked in id order (so concurrent writers
 * never deadlock), checked for funds, and moved by the postings (a trigger keeps balances;
 * the database refuses an unbalanced entry at commit and a negative wallet balance at once).
 * With `dedupeKey`, a second post of the same key writes nothing and reports `replay`.
 */
export async function postJournalEntry(
  tx: Prisma.TransactionClient,
  entry: JournalEntryInput,
): Promise<PostedEntry> {
  assertBalanced(entry.postings);
  // Each account the entry touches, once, with the net amount it moves by.
  const keys = entry.postings.map((posting) => keyOf(posting.account));
  const labels = keys.map(label);
  const touched = new Map<string, { key: AccountKey; account: AccountRef; delta: bigint }>();
  entry.postings.forEach((posting, index) => {
    const name = labels[index] as string;
    const seen = touched.get(name);
    if (seen) seen.delta += posting.amountMicros;
    else {
      const key = keys[index] as AccountKey;
      touched.set(name, { key, account: posting.account, delta: posting.amountMicros });
    }
  });
  const rows = JSON.stringify([...touched.values()].map(({ key }) => key));
  await tx.$executeRaw`
    INSERT INTO ledger_accounts (kind, wallet, chain, bucket)
    SELECT a.kind, a.wallet, a.chain, a.bucket
    FROM jsonb_to_recordset(${rows}::jsonb) AS a(kind text, wallet text, chain text, bucket text)
    ON CONFLICT (wallet, chain, bucket) DO NOTHING`;
  const locked = await tx.$queryRaw<
    { id: bigint; wallet: string | null; chain: string; bucket: string; balance: bigint }[]
  >`
    SELECT l.id, l.wallet, l.chain, l.bucket, l.balance_micros AS balance
    FROM ledger_accounts l
    JOIN jsonb_to_recordset(${rows}::jsonb) AS a(wallet text, chain text, bucket text)
      ON l.wallet IS NOT DISTINCT FROM a.wallet AND l.chain = a.chain AND l.bucket = a.bucket
    ORDER BY l.id
    FOR UPDATE OF l`;
  const byLabel = new Map(locked.map((row) => [label({ kind: 'wallet', ...row }), row] as const));

  // The dedupe key is claimed by the insert itself: a concurrent twin waits on it, then sees it.
  const created = await tx.$queryRaw<{ id: bigint }[]>`
    INSERT INTO journal_entries (kind, dedupe_key, plan_id, leg_index, tx_id, memo)
    VALUES (${entry.kind}, ${entry.dedupeKey ?? null}, ${entry.planId ?? null},
            ${entry.legIndex ?? null}, ${entry.txId ?? null}, ${entry.memo ?? null})
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING id`;
  const entryId = created[0]?.id;
  if (entryId === undefined) {
    const seen = await tx.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM journal_entries WHERE dedupe_key = ${entry.dedupeKey ?? null}`;
    if (!seen[0]) throw new Error('journal entry insert returned no id');
    return { entryId: seen[0].id, replay: true };
  }

  for (const [name, { key, account, delta }] of touched) {
    const row = byLabel.get(name);
    if (!row) throw new Error(`ledger account ${name} vanished under its lock`);
    if (key.kind === 'wallet' && row.balance + delta < 0n) {
      throw new LedgerError(
        'INSUFFICIENT_BALANCE',
        `${name} holds ${row.balance} micros; the entry needs ${-delta}`,
        account,
      );
    }
  }

  const postings = JSON.stringify(
    entry.postings
      .map((posting, index) => ({
        account_id: String(byLabel.get(labels[index] as string)?.id),
        amount_micros: posting.amountMicros.toString(),
      }))
      // In account order, like the locks: the balance trigger updates rows in that order too.
      .sort((a, b) => (BigInt(a.account_id) < BigInt(b.account_id) ? -1 : 1)),
  );
  await tx.$executeRaw`
    INSERT INTO postings (entry_id, account_id, amount_micros)
    SELECT ${entryId}, p.account_id, p.amount_micros
    FROM jsonb_to_recordset(${postings}::jsonb) AS p(account_id bigint, amount_micros bigint)`;
  // The balance check is deferred to commit for every writer; ours runs it now, so a broken
  // entry fails this statement (and rolls back) instead of the COMMIT.
  await tx.$executeRaw`SET CONSTRAINTS "postings_balanced" IMMEDIATE`;
  return { entryId, replay: false };
}

const SERIALIZATION_FAILURES = ['40001', '40P01'];

function isRetryable(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : '';
  return SERIALIZATION_FAILURES.some((code) => text.includes(code)) || /deadlock/i.test(text);
}

/**
 * Runs a money write in one transaction (READ COMMITTED with row locks taken by
 * `postJournalEntry`), retrying a transient serialization or deadlock failure a few times.
 */
export async function runLedgerTransaction<T>(
  prisma: PrismaClient,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  { attempts = 3 }: { attempts?: number } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await prisma.$transaction(work, { timeout: 15_000, maxWait: 15_000 });
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
    }
  }
}

export interface AccountBalance {
  readonly chain: string;
  readonly bucket: string;
  readonly balanceMicros: bigint;
}

/** A wallet's balances by chain and bucket (accounts never posted to are absent). */
export async function readWalletBalances(
  db: PrismaClientOrTransaction,
  wallet: string,
): Promise<AccountBalance[]> {
  const rows = await db.ledgerAccount.findMany({
    where: { wallet },
    orderBy: [{ chain: 'asc' }, { bucket: 'asc' }],
    select: { chain: true, bucket: true, balanceMicros: true },
  });
  return rows;
}
