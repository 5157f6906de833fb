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

/** One input of a programmable transaction: pure values as the node printed them. */
export type InputView =
  | { readonly kind: 'pure'; readonly valueType: string | null; readonly value: unknown }
  | { readonly kind: 'object' };

/** One `MoveCall` command; `inputs[i]` is the input index of argument i (undefined: not an input). */
export interface MoveCallView {
  readonly package: string;
  readonly module: string;
  readonly function: string;
  readonly inputs: readonly (number | undefined)[];
}

/** `transaction.data` (showInput): the sender and, for a programmable transaction, its calls. */
export interface TransactionInputView {
  readonly sender: string;
  readonly inputs: readonly InputView[];
  readonly moveCalls: readonly MoveCallView[];
}

/** What `sui_getTransactionBlock` (input, effects, events, balance changes) tells us. */
export interface TransactionView {
  readonly digest: string;
  readonly status: 'success' | 'failure';
  readonly error: string | undefined;
  readonly checkpoint: string | null;
  /** Undefined when the response carries no `transaction` (not asked with showInput). */
  readonly input: TransactionInputView | undefined;
  readonly events: readonly EventView[];
  readonly balanceChanges: readonly BalanceChangeView[];
  /**
   * The gas the transaction charged (computation + storage − rebate, in mist) and whose coin paid
   * it: part of that owner's SUI balance change. Undefined when the effects report no gas.
   */
  readonly gas: { readonly owner: string | undefined; readonly charged: bigint } | undefined;
  /** Objects the transaction created or mutated: their new version and (mutated) the prior one. */
  readonly changedObjects: readonly ObjectChangeView[];
}

/** One object a transaction wrote (effects `created` / `mutated`, `modifiedAtVersions`). */
export interface ObjectChangeView {
  /** `created` (new in this transaction) or `mutated`. */
  readonly kind: 'created' | 'mutated';
  readonly objectId: string;
  readonly version: string;
  /** Undefined for an object the transaction created. */
  readonly previousVersion: string | undefined;
}

function readObjectChanges(effects: Record<string, unknown>): ObjectChangeView[] {
  const before = new Map<string, string>();
  for (const item of effects.modifiedAtVersions === undefined
    ? []
    : list(effects.modifiedAtVersions, 'effects.modifiedAtVersions')) {
    const entry = record(item, 'effects.modifiedAtVersions[]');
    before.set(
      text(entry.objectId, 'modifiedAtVersions.objectId'),
      text(entry.sequenceNumber, 'modifiedAtVersions.sequenceNumber'),
    );
  }
  const refs = (key: 'created' | 'mutated') =>
    effects[key] === undefined
      ? []
      : list(effects[key], `effects.${key}`).map((item) => {
          const reference = record(record(item, `effects.${key}[]`).reference, 'reference');
          const objectId = text(reference.objectId, 'reference.objectId');
          const version = reference.version;
          if (typeof version !== 'string' && typeof version !== 'number') {
            throw new SuiBadResponseError('reference.version: expected a number');
          }
          return {
            kind: key,
            objectId,
            version: String(version),
            previousVersion: key === 'mutated' ? before.get(objectId) : undefined,
          };
        });
  return [...refs('created'), ...refs('mutated')];
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

function readInput(value: unknown): InputView {
  const input = record(value, 'input');
  if (input.type !== 'pure') return { kind: 'object' };
  const valueType = input.valueType;
  if (valueType !== undefined && valueType !== null && typeof valueType !== 'string') {
    throw new SuiBadResponseError('input.valueType: expected a string or null');
  }
  return { kind: 'pure', valueType: valueType ?? null, value: input.value };
}

function readMoveCall(value: unknown): MoveCallView | undefined {
  const command = record(value, 'transactions[]');
  if (command.MoveCall === undefined) return undefined;
  const call = record(command.MoveCall, 'MoveCall');
  return {
    package: text(call.package, 'MoveCall.package'),
    module: text(call.module, 'MoveCall.module'),
    function: text(call.function, 'MoveCall.function'),
    inputs: list(call.arguments, 'MoveCall.arguments').map((argument) => {
      const index =
        typeof argument === 'object' && argument !== null && 'Input' in argument
          ? (argument as { Input: unknown }).Input
          : undefined;
      return typeof index === 'number' && Number.isInteger(index) ? index : undefined;
    }),
  };
}

/** `transaction.data` of a response fetched with showInput; other kinds than PTBs call nothing. */
function readTransactionInput(value: unknown): TransactionInputView | undefined {
  if (value === undefined || value === null) return undefined;
  const data = record(record(value, 'transaction').data, 'transaction.data');
  const sender = text(data.sender, 'transaction.data.sender');
  const kind = record(data.transaction, 'transaction.data.transaction');
  if (kind.kind !== 'ProgrammableTransaction') return { sender, inputs: [], moveCalls: [] };
  const moveCalls: MoveCallView[] = [];
  for (const command of list(kind.transactions, 'transaction.data.transaction.transactions')) {
    const call = readMoveCall(command);
    if (call) moveCalls.push(call);
  }
  return {
    sender,
    inputs: list(kind.inputs, 'transaction.data.transaction.inputs').map(readInput),
    moveCalls,
  };
}

/** `effects.gasUsed`: computation, storage and rebate, in mist. */
function readGasUsed(value: unknown, what: string): DryRunGasView {
  const used = record(value, what);
  const cost = (name: string) => {
    const amount = text(used[name], `gasUsed.${name}`);
    if (!UNSIGNED.test(amount)) throw new SuiBadResponseError(`gasUsed.${name}: not a u64`);
    return BigInt(amount);
  };
  return {
    computationCost: cost('computationCost'),
    storageCost: cost('storageCost'),
    storageRebate: cost('storageRebate'),
  };
}

/** `effects.status`: success or failure, and the failure's error. */
function readStatus(effects: Record<string, unknown>, what: string) {
  const status = record(effects.status, `${what}.effects.status`);
  if (status.status !== 'success' && status.status !== 'failure') {
    throw new SuiBadResponseError(`${what}.effects.status: must be success or failure`);
  }
  return {
    status: status.status,
    error: typeof status.error === 'string' ? status.error : undefined,
  } as const;
}

/** `effects.gasUsed` and `effects.gasObject.owner`, when the node reports them. */
function readGas(effects: Record<string, unknown>): TransactionView['gas'] {
  if (effects.gasUsed === undefined || effects.gasUsed === null) return undefined;
  const used = readGasUsed(effects.gasUsed, 'transaction.effects.gasUsed');
  const gasObject = effects.gasObject;
  const owner =
    typeof gasObject === 'object' && gasObject !== null && 'owner' in gasObject
      ? (gasObject as { owner: unknown }).owner
      : undefined;
  return {
    owner:
      typeof owner === 'object' && owner !== null && 'AddressOwner' in owner
        ? text((owner as { AddressOwner: unknown }).AddressOwner, 'gasObject.owner')
        : undefined,
    charged: used.computationCost + used.storageCost - used.storageRebate,
  };
}

/**
 * Reads a transaction response fetched with showInput, showEffects, showEvents and
 * showBalanceChanges.
 */
export function readTransaction(value: unknown): TransactionView {
  const response = record(value, 'transaction');
  const effects = record(response.effects, 'transaction.effects');
  const status = readStatus(effects, 'transaction');
  const checkpoint = response.checkpoint;
  if (checkpoint !== undefined && checkpoint !== null && typeof checkpoint !== 'string') {
    throw new SuiBadResponseError('transaction.checkpoint: expected a string');
  }
  return {
    digest: text(response.digest, 'transaction.digest'),
    ...status,
    checkpoint: checkpoint ?? null,
    input: readTransactionInput(response.transaction),
    events: list(response.events, 'transaction.events').map(readEvent),
    balanceChanges: list(response.balanceChanges, 'transaction.balanceChanges').map(
      readBalanceChange,
    ),
    gas: readGas(effects),
    changedObjects: readObjectChanges(effects),
  };
}

/** `sui_executeTransactionBlock` → the digest the node assigned. */
export function readExecutedDigest(value: unknown): string {
  return text(record(value, 'execution').digest, 'execution.digest');
}

/** `effects.gasUsed` of a dry run, in mist. */
export interface DryRunGasView {
  readonly computationCost: bigint;
  readonly storageCost: bigint;
  readonly storageRebate: bigint;
}

/** What `sui_dryRunTransactionBlock` tells us: the status, the gas used, the balance changes. */
export interface DryRunView {
  readonly status: 'success' | 'failure';
  readonly error: string | undefined;
  readonly gasUsed: DryRunGasView;
  readonly balanceChanges: readonly BalanceChangeView[];
}

/** Reads a `sui_dryRunTransactionBlock` answer (effects.status, effects.gasUsed, balanceChanges). */
export function readDryRun(value: unknown): DryRunView {
  const response = record(value, 'dryRun');
  const effects = record(response.effects, 'dryRun.effects');
  return {
    ...readStatus(effects, 'dryRun'),
    gasUsed: readGasUsed(effects.gasUsed, 'dryRun.effects.gasUsed'),
    balanceChanges: list(response.balanceChanges, 'dryRun.balanceChanges').map(readBalanceChange),
  };
}
