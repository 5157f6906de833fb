import type {
  BalanceChange,
  CoinBalance,
  CoinStruct,
  SuiEvent,
  SuiObjectData,
  SuiObjectResponse,
  SuiTransactionBlockResponse,
  TransactionEffects,
} from '@mysten/sui/jsonRpc';
import { normalizeSuiAddress, parseStructTag } from '@mysten/sui/utils';
import { displayCoinType, randomDigest, randomObjectId } from './ids';
import type { SuiFakeObject, SuiFakeTransaction, SuiFakeState } from './state';
import { renderRawTransaction, renderTransactionData } from './renderInput';
import type { MoveSignatures } from './renderInput';

/**
 * The gas every transaction reports. Transactions the fake runs (`runProgrammable`) charge the
 * net of it (computation + storage − rebate) to the gas coin, as a node does.
 */
export const FAKE_GAS_USED = {
  computationCost: '750000',
  storageCost: '2964000',
  storageRebate: '978120',
  nonRefundableStorageFee: '9880',
} as const;
export const FAKE_GAS_CHARGED =
  BigInt(FAKE_GAS_USED.computationCost) +
  BigInt(FAKE_GAS_USED.storageCost) -
  BigInt(FAKE_GAS_USED.storageRebate);

/** `suix_getBalance` for one owner and coin type. */
export function renderBalance(state: SuiFakeState, owner: string, coinType: string): CoinBalance {
  const coins = state.coinsOf(owner, coinType);
  const total = coins.reduce((sum, coin) => sum + (coin.coin?.balance ?? 0n), 0n);
  return {
    coinType: displayCoinType(coinType),
    coinObjectCount: coins.length,
    totalBalance: total.toString(),
    lockedBalance: {},
  };
}

/** `suix_getAllBalances`: one entry per coin type the owner holds. */
export function renderAllBalances(state: SuiFakeState, owner: string): CoinBalance[] {
  const types = new Set<string>();
  for (const coin of state.allCoinsOf(owner)) if (coin.coin) types.add(coin.coin.coinType);
  return [...types].map((coinType) => renderBalance(state, owner, coinType));
}

/** One entry of `suix_getCoins`. */
export function renderCoin(object: SuiFakeObject): CoinStruct {
  return {
    coinType: displayCoinType(object.coin?.coinType ?? '0x2::sui::SUI'),
    coinObjectId: object.objectId,
    version: object.version.toString(),
    digest: object.digest,
    balance: (object.coin?.balance ?? 0n).toString(),
    previousTransaction: object.previousTransaction,
  };
}

/** The `SuiObjectDataOptions` the fake honours. */
export interface ObjectOptions {
  readonly showType?: boolean;
  readonly showOwner?: boolean;
  readonly showPreviousTransaction?: boolean;
  readonly showContent?: boolean;
  readonly showStorageRebate?: boolean;
}

/** `sui_getObject`: the fields the options ask for, or a `notExists` error. */
export function renderObject(
  state: SuiFakeState,
  objectId: string,
  options: ObjectOptions,
): SuiObjectResponse {
  const object = state.objects.get(normalizeSuiAddress(objectId));
  if (!object) return { error: { code: 'notExists', object_id: normalizeSuiAddress(objectId) } };
  const data: SuiObjectData = {
    objectId: object.objectId,
    version: object.version.toString(),
    digest: object.digest,
  };
  if (options.showType) data.type = object.type;
  if (options.showOwner) data.owner = object.owner;
  if (options.showPreviousTransaction) data.previousTransaction = object.previousTransaction;
  if (options.showStorageRebate) data.storageRebate = '988000';
  if (options.showContent) {
    data.content = {
      dataType: 'moveObject',
      type: object.type,
      hasPublicTransfer: object.coin !== undefined,
      fields: { id: { id: object.objectId }, ...object.fields } as never,
    };
  }
  return { data };
}

/** The `SuiTransactionBlockResponseOptions` the fake honours. */
export interface TransactionOptions {
  readonly showInput?: boolean;
  readonly showRawInput?: boolean;
  readonly showEffects?: boolean;
  readonly showEvents?: boolean;
  readonly showBalanceChanges?: boolean;
}

export function renderEvents(transaction: SuiFakeTransaction): SuiEvent[] {
  return transaction.events.map((event, index) => {
    const tag = parseStructTag(event.type);
    return {
      id: { txDigest: transaction.digest, eventSeq: String(index) },
      packageId: normalizeSuiAddress(tag.address),
      transactionModule: tag.module,
      sender: normalizeSuiAddress(event.sender ?? transaction.sender),
      type: event.type,
      parsedJson: event.parsedJson,
      bcsEncoding: 'base64',
      bcs: event.bcs ?? '',
      timestampMs: transaction.timestampMs,
    };
  });
}

export function renderBalanceChanges(transaction: SuiFakeTransaction): BalanceChange[] {
  return transaction.balanceChanges.map((change) => ({
    owner: { AddressOwner: normalizeSuiAddress(change.owner) },
    coinType: displayCoinType(change.coinType),
    amount: change.amount.toString(),
  }));
}

export function renderEffects(transaction: SuiFakeTransaction): TransactionEffects {
  return {
    messageVersion: 'v1',
    status:
      transaction.status === 'success'
        ? { status: 'success' }
        : { status: 'failure', error: transaction.error ?? 'MoveAbort' },
    executedEpoch: '0',
    gasUsed: FAKE_GAS_USED,
    transactionDigest: transaction.digest,
    gasObject: {
      owner: { AddressOwner: transaction.sender },
      reference: { objectId: randomObjectId(), version: '2', digest: randomDigest() },
    },
    dependencies: [],
    ...(transaction.events.length > 0 ? { eventsDigest: randomDigest() } : {}),
    ...objectChanges(transaction),
  };
}

/** `created`, `mutated` and `modifiedAtVersions` of the objects a venue function wrote. */
function objectChanges(transaction: SuiFakeTransaction) {
  const changes = transaction.changedObjects;
  if (changes.length === 0) return {};
  const ref = (change: (typeof changes)[number]) => ({
    owner: change.owner as never,
    reference: {
      objectId: change.objectId,
      version: change.version.toString(),
      digest: change.digest,
    },
  });
  return {
    created: changes.filter((change) => change.previousVersion === undefined).map(ref),
    mutated: changes.filter((change) => change.previousVersion !== undefined).map(ref),
    modifiedAtVersions: changes.flatMap((change) =>
      change.previousVersion === undefined
        ? []
        : [{ objectId: change.objectId, sequenceNumber: change.previousVersion.toString() }],
    ),
  };
}

/**
 * A `SuiTransactionBlockResponse` with the parts the options ask for. `withCheckpoint` is false
 * for `sui_executeTransactionBlock`, which never reports a checkpoint; `signatures` type the pure
 * inputs of `showInput`.
 */
export function renderTransaction(
  transaction: SuiFakeTransaction,
  signatures: MoveSignatures,
  options: TransactionOptions,
  withCheckpoint: boolean,
): SuiTransactionBlockResponse {
  const response: SuiTransactionBlockResponse = { digest: transaction.digest };
  if (options.showInput) {
    response.transaction = {
      data: renderTransactionData(transaction, signatures),
      txSignatures: [...transaction.signatures],
    };
  }
  const raw = options.showRawInput ? renderRawTransaction(transaction) : undefined;
  if (raw !== undefined) response.rawTransaction = raw;
  if (options.showEffects) response.effects = renderEffects(transaction);
  if (options.showEvents) response.events = renderEvents(transaction);
  if (options.showBalanceChanges) response.balanceChanges = renderBalanceChanges(transaction);
  response.timestampMs = transaction.timestampMs;
  if (withCheckpoint && transaction.checkpoint !== null) {
    response.checkpoint = transaction.checkpoint.toString();
  }
  return response;
}
