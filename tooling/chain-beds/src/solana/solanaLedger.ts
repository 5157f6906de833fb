import { FailedTransactionMetadata } from 'litesvm';
import type { LiteSVM } from 'litesvm';
import type { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { toLiteSvmTransaction } from './liteSvmTransaction';
import { svmAddress } from './svmAccounts';
import { uiTokenAmount } from './splAccounts';
import { readTokenBalances } from './tokenBalances';
import type { TokenBalanceJson } from './tokenBalances';
import { transactionErrorJson } from './transactionErrorJson';
import type { TransactionErrorJson } from './transactionErrorJson';

/** A transaction that landed (succeeded or failed), as `getTransaction` reports it. */
export interface LedgerEntry {
  readonly signature: string;
  readonly slot: bigint;
  readonly blockTime: number;
  readonly transaction: VersionedTransaction;
  readonly err: TransactionErrorJson | null;
  readonly fee: bigint;
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly preTokenBalances: readonly TokenBalanceJson[];
  readonly postTokenBalances: readonly TokenBalanceJson[];
  readonly logMessages: readonly string[];
  readonly computeUnitsConsumed: bigint;
}

/**
 * What happened to a submitted transaction. `landed: false` is a transaction a node would drop
 * without charging a fee (bad signature, unknown blockhash, already processed, a failed
 * preflight): it is not recorded.
 */
export type ExecutionOutcome =
  | { readonly landed: true; readonly entry: LedgerEntry }
  | {
      readonly landed: false;
      readonly signature: string;
      readonly err: TransactionErrorJson;
      readonly logs: readonly string[];
      readonly unitsConsumed: bigint;
    };

/** What a recorded transaction did (see `SolanaLedger.record`). */
export interface RecordedEffects {
  /** Token amount changes by token-account address (base units; negative for what left). */
  readonly tokenDeltas?: Readonly<Record<string, bigint>>;
  readonly err?: TransactionErrorJson | null;
  readonly logMessages?: readonly string[];
}

export interface ExecuteOptions {
  /** Simulate first and refuse (without landing) when the simulation fails, as RPC preflight does. */
  readonly preflight: boolean;
}

function signatureOf(transaction: VersionedTransaction): string {
  const first = transaction.signatures[0];
  if (!first) throw new Error('transaction: no signature slot');
  return bs58.encode(first);
}

/**
 * Runs transactions in litesvm and keeps the history a node would serve: balances and token
 * balances before and after, the fee, logs, the error of a transaction that failed on chain.
 * Each landed transaction advances the slot by one.
 */
export class SolanaLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  constructor(private readonly svm: LiteSVM) {}

  /** The landed transaction with this base58 signature, if any. */
  get(signature: string): LedgerEntry | undefined {
    return this.entries.get(signature);
  }

  /**
   * The landed transactions that name `address` among their accounts, newest first (what
   * getSignaturesForAddress serves), at most `limit`, and only those older than `before`.
   */
  signaturesFor(address: string, limit: number, before?: string): LedgerEntry[] {
    const all = [...this.entries.values()].reverse();
    const start =
      before === undefined ? 0 : all.findIndex((entry) => entry.signature === before) + 1;
    if (before !== undefined && start === 0) return [];
    return all
      .slice(start)
      .filter((entry) =>
        entry.transaction.message.staticAccountKeys.some((key) => key.toBase58() === address),
      )
      .slice(0, limit);
  }

  /** The current slot (litesvm's clock). */
  slot(): bigint {
    return this.svm.getClock().slot;
  }

  execute(transaction: VersionedTransaction, options: ExecuteOptions): ExecutionOutcome {
    const signature = signatureOf(transaction);
    if (transaction.message.addressTableLookups.length > 0) {
      throw new Error('the bed does not resolve address lookup tables');
    }
    const liteTransaction = toLiteSvmTransaction(transaction);
    if (options.preflight) {
      const simulated = this.svm.simulateTransaction(liteTransaction);
      if (simulated instanceof FailedTransactionMetadata) {
        return this.dropped(signature, simulated);
      }
    }
    const keys = transaction.message.staticAccountKeys.map((key) => key.toBase58());
    const preBalances = this.balances(keys);
    const preTokenBalances = readTokenBalances(this.svm, keys);
    const result = this.svm.sendTransaction(liteTransaction);
    const postBalances = this.balances(keys);
    const failed = result instanceof FailedTransactionMetadata;
    // A failed transaction lands only when its fee was charged (the fee payer is key 0).
    if (failed && preBalances[0] === postBalances[0]) return this.dropped(signature, result);
    const meta = failed ? result.meta() : result;
    const slot = this.slot();
    const entry: LedgerEntry = {
      signature,
      slot,
      blockTime: Number(this.svm.getClock().unixTimestamp),
      transaction,
      err: failed ? transactionErrorJson(result.err()) : null,
      // Lamports only move between the listed accounts; what is missing afterwards is the fee.
      fee: sum(preBalances) - sum(postBalances),
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances: readTokenBalances(this.svm, keys),
      logMessages: meta.logs(),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
    };
    this.entries.set(signature, entry);
    this.svm.warpToSlot(slot + 1n);
    return { landed: true, entry };
  }

  /**
   * Lays down a landed transaction without running it, for programs the bed does not have
   * (Circle's CCTP): the test states what it did to token accounts (`tokenDeltas`, by account
   * address) and whether it failed. The SVM's accounts do not change; only the history does.
   */
  record(transaction: VersionedTransaction, effects: RecordedEffects): LedgerEntry {
    const keys = transaction.message.staticAccountKeys.map((key) => key.toBase58());
    const balances = this.balances(keys);
    const preTokenBalances = readTokenBalances(this.svm, keys);
    const postTokenBalances = preTokenBalances.map((balance) => {
      const delta = effects.tokenDeltas?.[keys[balance.accountIndex] ?? ''] ?? 0n;
      const amount = BigInt(balance.uiTokenAmount.amount) + delta;
      return { ...balance, uiTokenAmount: uiTokenAmount(amount, balance.uiTokenAmount.decimals) };
    });
    const slot = this.slot();
    const entry: LedgerEntry = {
      signature: signatureOf(transaction),
      slot,
      blockTime: Number(this.svm.getClock().unixTimestamp),
      transaction,
      err: effects.err ?? null,
      fee: 0n,
      preBalances: balances,
      postBalances: balances,
      preTokenBalances,
      postTokenBalances,
      logMessages: effects.logMessages ?? [],
      computeUnitsConsumed: 0n,
    };
    this.entries.set(entry.signature, entry);
    this.svm.warpToSlot(slot + 1n);
    return entry;
  }

  private balances(keys: readonly string[]): bigint[] {
    return keys.map((key) => this.svm.getBalance(svmAddress(key)) ?? 0n);
  }

  private dropped(signature: string, failure: FailedTransactionMetadata): ExecutionOutcome {
    const meta = failure.meta();
    return {
      landed: false,
      signature,
      err: transactionErrorJson(failure.err()),
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
    };
  }
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((total, value) => total + value, 0n);
}
