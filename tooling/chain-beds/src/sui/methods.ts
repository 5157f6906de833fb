import type { Checkpoint, PaginatedCoins } from '@mysten/sui/jsonRpc';
import { fromBase58, isValidTransactionDigest, toHex } from '@mysten/sui/utils';
import { dryRunTransaction } from './dryRun';
import { executeTransaction } from './execute';
import { moveFunctionKey, parseAddress, randomDigest, SUI_COIN_TYPE } from './ids';
import type { ObjectOptions, TransactionOptions } from './render';
import {
  renderAllBalances,
  renderBalance,
  renderCoin,
  renderObject,
  renderTransaction,
} from './render';
import { queryEvents } from './queryEvents';
import { invalidParams, RpcMethodError } from './rpcError';
import type { SuiFakeState } from './state';

/** What every handler gets. */
export interface MethodContext {
  readonly state: SuiFakeState;
  readonly referenceGasPrice: bigint;
}

type Handler = (context: MethodContext, params: readonly unknown[]) => unknown;

function address(value: unknown, name: string): string {
  const parsed = parseAddress(value);
  if (!parsed) throw invalidParams(`${name} must be a Sui address`);
  return parsed;
}

function coinType(value: unknown): string {
  if (value === undefined || value === null) return SUI_COIN_TYPE;
  if (typeof value !== 'string') throw invalidParams('coin_type must be a string');
  return value;
}

function options<T>(value: unknown): T {
  return (value && typeof value === 'object' ? value : {}) as T;
}

/** The chain identifier: the first 4 bytes of the genesis checkpoint digest, in hex. */
export function chainIdentifier(state: SuiFakeState): string {
  return toHex(fromBase58(state.genesisDigest).slice(0, 4));
}

function checkpoint(state: SuiFakeState, id: unknown): Checkpoint {
  const text = typeof id === 'number' ? String(id) : id;
  if (typeof text !== 'string' || !/^\d+$/.test(text) || BigInt(text) > state.latestCheckpoint) {
    throw invalidParams(`Could not find checkpoint ${String(id)}`);
  }
  const transactions = [...state.transactions.values()]
    .filter((transaction) => transaction.checkpoint?.toString() === text)
    .map((transaction) => transaction.digest);
  return {
    sequenceNumber: text,
    digest: text === '0' ? state.genesisDigest : randomDigest(),
    epoch: '0',
    timestampMs: String(Date.now()),
    transactions,
    networkTotalTransactions: String(state.transactions.size),
    checkpointCommitments: [],
    validatorSignature: '',
    epochRollingGasCostSummary: {
      computationCost: '0',
      storageCost: '0',
      storageRebate: '0',
      nonRefundableStorageFee: '0',
    },
  };
}

function coins({ state }: MethodContext, params: readonly unknown[]): PaginatedCoins {
  const all = state.coinsOf(address(params[0], 'owner'), coinType(params[1]));
  const cursor = params[2];
  const limit = typeof params[3] === 'number' && params[3] > 0 ? params[3] : 50;
  const start =
    typeof cursor === 'string' ? all.findIndex((coin) => coin.objectId === cursor) + 1 : 0;
  const page = all.slice(start, start + limit);
  const hasNextPage = start + limit < all.length;
  return {
    data: page.map(renderCoin),
    hasNextPage,
    nextCursor: page.length > 0 ? (page[page.length - 1]?.objectId ?? null) : null,
  };
}

function transactionBlock({ state }: MethodContext, params: readonly unknown[]) {
  const digest = params[0];
  if (typeof digest !== 'string' || !isValidTransactionDigest(digest)) {
    throw invalidParams('digest must be a base58 32-byte transaction digest');
  }
  const transaction = state.transactions.get(digest);
  if (!transaction) {
    throw new RpcMethodError(
      -32602,
      `Could not find the referenced transaction [TransactionDigest(${digest})].`,
    );
  }
  return renderTransaction(
    transaction,
    state.moveFunctions,
    options<TransactionOptions>(params[1]),
    true,
  );
}

/** The Sui JSON-RPC methods the fake serves. Anything else is -32601. */
export const METHODS: Readonly<Record<string, Handler>> = {
  suix_getBalance: ({ state }, params) =>
    renderBalance(state, address(params[0], 'owner'), coinType(params[1])),
  suix_getAllBalances: ({ state }, params) => renderAllBalances(state, address(params[0], 'owner')),
  suix_getCoins: coins,
  sui_getObject: ({ state }, params) =>
    renderObject(state, address(params[0], 'object_id'), options<ObjectOptions>(params[1])),
  sui_multiGetObjects: ({ state }, params) => {
    if (!Array.isArray(params[0])) throw invalidParams('object_ids must be an array');
    const opts = options<ObjectOptions>(params[1]);
    return params[0].map((id: unknown) => renderObject(state, address(id, 'object_id'), opts));
  },
  sui_tryGetPastObject: ({ state }, params) => {
    const objectId = address(params[0], 'object_id');
    if (typeof params[1] !== 'number' && typeof params[1] !== 'string') {
      throw invalidParams('version must be a number');
    }
    const version = BigInt(params[1]);
    const object = state.objectAt(objectId, version);
    if (!object) return { status: 'VersionNotFound', details: [objectId, version.toString()] };
    const current = state.objects.get(objectId);
    state.objects.set(objectId, object);
    try {
      const rendered = renderObject(state, objectId, options<ObjectOptions>(params[2]));
      return { status: 'VersionFound', details: rendered.data };
    } finally {
      if (current) state.objects.set(objectId, current);
    }
  },
  sui_getTransactionBlock: transactionBlock,
  suix_queryEvents: ({ state }, params) => queryEvents(state, params),
  sui_executeTransactionBlock: ({ state, referenceGasPrice }, params) =>
    executeTransaction(state, params, referenceGasPrice),
  sui_dryRunTransactionBlock: ({ state, referenceGasPrice }, params) =>
    dryRunTransaction(state, params, referenceGasPrice),
  sui_getChainIdentifier: ({ state }) => chainIdentifier(state),
  sui_getCheckpoint: ({ state }, params) => checkpoint(state, params[0]),
  sui_getLatestCheckpointSequenceNumber: ({ state }) => state.latestCheckpoint.toString(),
  suix_getReferenceGasPrice: ({ referenceGasPrice }) => referenceGasPrice.toString(),
  sui_getNormalizedMoveFunction: ({ state }, params) => {
    const [pkg, module, name] = params;
    if (typeof module !== 'string' || typeof name !== 'string') {
      throw invalidParams('module and function must be strings');
    }
    const fn = state.fakeFunctions.get(moveFunctionKey(address(pkg, 'package'), module, name));
    if (!fn) throw invalidParams(`No function was found with function name ${name}`);
    return fn.normalized;
  },
};
