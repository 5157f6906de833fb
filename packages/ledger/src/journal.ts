import type { Books } from './books';
import type { Prisma } from './generated/prisma/client';

export type LedgerChain = 'sui' | 'solana' | 'base' | 'arbitrum';

/**
 * What a wallet owns on one chain. `staked:<opportunityId>` per venue position; `auto_pay` is
 * yield a run withdrew to the owner for payees, until its transfer legs settle (0023).
 */
export type WalletBucket =
  'liquid' | 'pending_in' | 'pending_out' | 'in_flight' | 'auto_pay' | `staked:${string}`;

/** The books' unit: an account that names no asset holds USDC. */
export const BOOKS_ASSET = 'USDC';

/**
 * An account: a wallet's bucket on a chain, or a system account. Accounts hold USDC unless they
 * name another `asset` (its id on the chain: see `ledgerAssetOf`); a wallet holds another asset
 * only in `liquid` (what a swap brought in), and fees in another asset are kept per chain.
 */
export type AccountRef =
  | {
      readonly wallet: string;
      readonly chain: LedgerChain;
      readonly bucket: WalletBucket;
      readonly asset?: string;
    }
  /** The outside world on a chain: money in from the chain is credited against it. */
  | { readonly system: 'external'; readonly chain: LedgerChain; readonly asset?: string }
  /** Protocol fees (the yield skim, swap fees) in USDC, across chains. */
  | { readonly system: 'fees:protocol' }
  /** Protocol fees in another asset, on the chain that asset lives on. */
  | { readonly system: 'fees:protocol'; readonly chain: LedgerChain; readonly asset: string }
  /**
   * The protocol's share an exit took out of a venue on `chain` that the treasury has not
   * received yet (a skim leg not signed, expired or failed; migration 0055). USDC only.
   */
  | { readonly system: 'fees:receivable'; readonly chain: LedgerChain };

export interface PostingInput {
  readonly account: AccountRef;
  /** Positive credits the account, negative debits it. Never 0. */
  readonly amountMicros: bigint;
}

export interface JournalEntryInput {
  readonly kind: string;
  /**
   * Same key → posted once; a second call with the same entry is a replay that posts nothing,
   * with another entry (kind, plan, leg or postings) a `LedgerError` DEDUPE_CONFLICT.
   */
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
    readonly code:
      | 'UNBALANCED'
      | 'INSUFFICIENT_BALANCE'
      | 'INVALID_POSTING'
      | 'DEDUPE_CONFLICT'
      | 'OUT_OF_RANGE',
    message: string,
    /** The account short of funds, for INSUFFICIENT_BALANCE. */
    readonly account?: AccountRef,
  ) {
    super(message);
  }
}

/** An account as the database keys it: (wallet, chain, bucket), the asset inside the bucket. */
export interface AccountKey {
  readonly kind: 'wallet' | 'system';
  readonly wallet: string | null;
  readonly chain: string;
  readonly bucket: string;
}

const STAKED = /^staked:svcop[0-9a-f]{24}$/;
/** An asset id as an account names it (migration 0029). */
const ASSET = /^[0-9A-Za-z:_]{1,200}$/;

/** The bucket of `base` in `asset`: plain for USDC, `<base>@<asset>` for another asset. */
function assetBucket(base: string, asset: string | undefined): string {
  if (asset === undefined || asset === BOOKS_ASSET) return base;
  if (!ASSET.test(asset)) throw new LedgerError('INVALID_POSTING', `unknown asset ${asset}`);
  return `${base}@${asset}`;
}

/** The database key of an account (refuses an unknown bucket or asset: INVALID_POSTING). */
export function keyOf(ref: AccountRef): AccountKey {
  if ('wallet' in ref) {
    const plain = ['liquid', 'pending_in', 'pending_out', 'in_flight', 'auto_pay'].includes(
      ref.bucket,
    );
    if (!plain && !STAKED.test(ref.bucket)) {
      throw new LedgerError('INVALID_POSTING', `unknown bucket ${ref.bucket}`);
    }
    if (ref.bucket !== 'liquid' && (ref.asset ?? BOOKS_ASSET) !== BOOKS_ASSET) {
      throw new LedgerError('INVALID_POSTING', `${ref.bucket} holds USDC only, not ${ref.asset}`);
    }
    return {
      kind: 'wallet',
      wallet: ref.wallet,
      chain: ref.chain,
      bucket: assetBucket(ref.bucket, ref.asset),
    };
  }
  if (ref.system === 'external') {
    return {
      kind: 'system',
      wallet: null,
      chain: ref.chain,
      bucket: assetBucket('external', ref.asset),
    };
  }
  if (ref.system === 'fees:receivable') {
    return { kind: 'system', wallet: null, chain: ref.chain, bucket: 'fees:receivable' };
  }
  if ('asset' in ref && ref.asset !== BOOKS_ASSET) {
    return {
      kind: 'system',
      wallet: null,
      chain: ref.chain,
      bucket: assetBucket('fees:protocol', ref.asset),
    };
  }
  return { kind: 'system', wallet: null, chain: 'all', bucket: 'fees:protocol' };
}

/** The asset an account holds: USDC unless it names another. */
export function assetOfAccount(ref: AccountRef): string {
  return 'asset' in ref && ref.asset !== undefined ? ref.asset : BOOKS_ASSET;
}

const label = (key: AccountKey) =>
  key.wallet === null ? `${key.bucket}:${key.chain}` : `${key.wallet}/${key.chain}/${key.bucket}`;

/**
 * Checks an entry before any SQL: at least two postings, none zero, summing to zero in each
 * asset (a swap's entry moves two assets; neither is ever traded against the other here).
 */
export function assertBalanced(postings: readonly PostingInput[]): void {
  if (postings.length < 2) {
    throw new LedgerError('UNBALANCED', 'a journal entry needs at least two postings');
  }
  const totals = new Map<string, bigint>();
  for (const posting of postings) {
    if (posting.amountMicros === 0n) {
      throw new LedgerError('INVALID_POSTING', 'a posting of 0 moves nothing');
    }
    const asset = assetOfAccount(posting.account);
    totals.set(asset, (totals.get(asset) ?? 0n) + posting.amountMicros);
  }
  for (const [asset, total] of totals) {
    if (total === 0n) continue;
    throw new LedgerError(
      'UNBALANCED',
      asset === BOOKS_ASSET
        ? `postings sum to ${total}, not 0`
        : `postings in ${asset} sum to ${total}, not 0`,
    );
  }
}

/** SQLSTATE of an overdraft refused by `ledger_post_entry` (migration 0009). */
const OVERDRAFT = 'YR001';
/** SQLSTATE of a dedupe key posted before as another entry (migration 0015). */
const DEDUPE_CONFLICT = 'YR002';
/** SQLSTATE of a value past its type's range: a balance past 2^63 − 1 micros. */
const OUT_OF_RANGE = '22003';

/** An error's text with its SQLSTATE: Prisma puts the code in the message, the driver in `code`. */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${typeof code === 'string' ? `${code} ` : ''}${error.message} ${String(error.cause ?? '')}`;
}

/** The SQLSTATE of a database error: the driver's `code`, or the one Prisma quotes. */
function sqlStateOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const quoted = /Code: `([0-9A-Z]{5})`/.exec(error.message)?.[1];
  if (quoted) return quoted;
  // Prisma's own codes (P2010, …) are not SQLSTATEs.
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9][0-9A-Z]{4}$/.test(code) ? code : undefined;
}

/** An entry as `ledger_post_entry` takes it, after checking its shape here (no SQL yet). */
export function journalEntryPayload(entry: JournalEntryInput): Prisma.InputJsonObject {
  assertBalanced(entry.postings);
  return JSON.parse(
    JSON.stringify({
      kind: entry.kind,
      dedupeKey: entry.dedupeKey,
      planId: entry.planId,
      legIndex: entry.legIndex,
      txId: entry.txId,
      memo: entry.memo,
      postings: entry.postings.map((posting) => ({
        ...keyOf(posting.account),
        amount: posting.amountMicros.toString(),
      })),
    }),
  ) as Prisma.InputJsonObject;
}

/**
 * An overdraft refused by the database, as `LedgerError` INSUFFICIENT_BALANCE naming the
 * account; a dedupe replay that is not the same entry (other kind, plan, leg or postings) as
 * DEDUPE_CONFLICT; anything else as is.
 */
export function toLedgerError(error: unknown, entry: JournalEntryInput): unknown {
  const text = errorText(error);
  if (text.includes(DEDUPE_CONFLICT)) {
    const detail = /dedupe key .* was posted before as another entry/.exec(text)?.[0];
    return new LedgerError('DEDUPE_CONFLICT', detail ?? text);
  }
  if (sqlStateOf(error) === OUT_OF_RANGE) {
    return new LedgerError(
      'OUT_OF_RANGE',
      'the entry would take a balance past 2^63 − 1 micros; nothing was written',
    );
  }
  if (!text.includes(OVERDRAFT)) return error;
  const short = entry.postings.find((posting) => {
    const key = keyOf(posting.account);
    return key.kind === 'wallet' && text.includes(`${label(key)} holds`);
  });
  const detail = /([^`:]+ holds -?\d+ micros; the entry needs \d+)/.exec(text)?.[1];
  return new LedgerError('INSUFFICIENT_BALANCE', detail?.trim() ?? text, short?.account);
}

/**
 * Posts one balanced journal entry in one statement (`ledger_post_entry`, migration 0009).
 * Must run inside a transaction (`books.transaction`): the accounts it touches are created
 * if new, then locked in id order (so concurrent writers never deadlock), checked for funds,
 * and moved by the postings (a trigger keeps balances; the database refuses an unbalanced entry
 * and a negative wallet balance). With `dedupeKey`, a second post of the same key writes
 * nothing and reports `replay` (the same key with another entry: DEDUPE_CONFLICT). An overdraft is `LedgerError` INSUFFICIENT_BALANCE naming the
 * account; the transaction is then aborted and must be rolled back.
 */
export async function postJournalEntry(tx: Books, entry: JournalEntryInput): Promise<PostedEntry> {
  const payload = JSON.stringify(journalEntryPayload(entry));
  try {
    const rows = await tx.$queryRaw<{ entry_id: bigint; replay: boolean }[]>`
      SELECT entry_id, replay FROM ledger_post_entry(${payload}::jsonb)`;
    const row = rows[0];
    if (!row) throw new Error('ledger_post_entry returned no entry');
    return { entryId: row.entry_id, replay: row.replay };
  } catch (error) {
    throw toLedgerError(error, entry);
  }
}

const SERIALIZATION_FAILURES = ['40001', '40P01'];

function isRetryable(error: unknown): boolean {
  const text = errorText(error);
  return SERIALIZATION_FAILURES.some((code) => text.includes(code)) || /deadlock/i.test(text);
}

/** Runs `work` again after a transient serialization or deadlock failure, a few times. */
export async function retryTransient<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
    }
  }
}
