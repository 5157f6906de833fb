import { SuiBadResponseError } from './errors';

// The JSON-RPC client returns the node's JSON untouched. These readers check the few fields we
// use and throw `SuiBadResponseError` (→ rpc_bad_response) for anything else.

const UNSIGNED = /^\d+$/;
const SIGNED = /^-?\d+$/;

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SuiBadResponseError(`${what}: expected an object`);
  }
  return value as Record<string, unknown>;
}

function list(value: unknown, what: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new SuiBadResponseError(`${what}: expected an array`);
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new SuiBadResponseError(`${what}: expected a string`);
  return value;
}

/** `suix_getBalance` → the total in base units. */
export function readTotalBalance(value: unknown): bigint {
  const total = record(value, 'balance').totalBalance;
  if (typeof total !== 'string' || !UNSIGNED.test(total)) {
    throw new SuiBadResponseError('balance: totalBalance must be a decimal string');
  }
  return BigInt(total);
}

/** One event of a transaction, as far as we read it. */
export interface EventView {
  readonly type: string;
  readonly parsedJson: unknown;
}

/** One balance change; `owner` is the address for address-owned balances, else undefined. */
export interface BalanceChangeView {
  readonly owner: string | undefined;
  readonly coinType: string;
  readonly amount: bigint;
}

/** What `sui_getTransactionBlock` (effects, events, balance changes) tells us. */
export interface TransactionView {
  readonly digest: string;
  readonly status: 'success' | 'failure';
  readonly error: string | undefined;
  readonly checkpoint: string | null;
  readonly events: readonly EventView[];
  readonly balanceChanges: readonly BalanceChangeView[];
}

function readEvent(value: unknown): EventView {
  const event = record(value, 'event');
  return { type: text(event.type, 'event.type'), parsedJson: event.parsedJson };
}

function readBalanceChange(value: unknown): BalanceChangeView {
  const change = record(value, 'balanceChange');
  const amount = text(change.amount, 'balanceChange.amount');
  if (!SIGNED.test(amount)) throw new SuiBadResponseError('balanceChange.amount: not an integer');
  const owner = change.owner;
  const address =
    typeof owner === 'object' && owner !== null && 'AddressOwner' in owner
      ? text((owner as { AddressOwner: unknown }).AddressOwner, 'balanceChange.owner')
      : undefined;
  return {
    owner: address,
    coinType: text(change.coinType, 'balanceChange.coinType'),
    amount: BigInt(amount),
  };
}

/** Reads a transaction response fetched with showEffects, showEvents and showBalanceChanges. */
export function readTransaction(value: unknown): TransactionView {
  const response = record(value, 'transaction');
  const effects = record(response.effects, 'transaction.effects');
  const status = record(effects.status, 'transaction.effects.status');
  if (status.status !== 'success' && status.status !== 'failure') {
    throw new SuiBadResponseError('transaction.effects.status: must be success or failure');
  }
  const checkpoint = response.checkpoint;
  if (checkpoint !== undefined && checkpoint !== null && typeof checkpoint !== 'string') {
    throw new SuiBadResponseError('transaction.checkpoint: expected a string');
  }
  return {
    digest: text(response.digest, 'transaction.digest'),
    status: status.status,
    error: typeof status.error === 'string' ? status.error : undefined,
    checkpoint: checkpoint ?? null,
    events: list(response.events, 'transaction.events').map(readEvent),
    balanceChanges: list(response.balanceChanges, 'transaction.balanceChanges').map(
      readBalanceChange,
    ),
  };
}

/** `sui_executeTransactionBlock` → the digest the node assigned. */
export function readExecutedDigest(value: unknown): string {
  return text(record(value, 'execution').digest, 'execution.digest');
}
