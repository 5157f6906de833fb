import type { DryRunTransactionBlockResponse } from '@mysten/sui/jsonRpc';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { ObjectCheck } from './execute';
import { checkGas, checkInputs, decode } from './execute';
import { coinTypeKey, randomDigest, randomObjectId, SUI_COIN_TYPE } from './ids';
import { renderBalanceChanges, renderEffects, renderEvents } from './render';
import { renderTransactionData } from './renderInput';
import { invalidParams, transactionInputError } from './rpcError';
import { runProgrammable, runsMoveCode } from './runProgrammable';
import type { SuiFakeObject, SuiFakeState, SuiFakeTransaction } from './state';

/** The gas coin a node makes up for a dry run with no gas payment: the budget, the gas owner's. */
function mockGasCoin(owner: string, budget: bigint): SuiFakeObject {
  return {
    objectId: randomObjectId(),
    version: 1n,
    digest: randomDigest(),
    type: `0x2::coin::Coin<${SUI_COIN_TYPE}>`,
    owner: { AddressOwner: owner },
    fields: {},
    previousTransaction: '',
    coin: { coinType: coinTypeKey(SUI_COIN_TYPE), balance: budget },
  };
}

/**
 * `sui_dryRunTransactionBlock`: the transaction as `sui_executeTransactionBlock` would run it,
 * with nothing committed and no signature asked. Inputs are checked as execution checks them
 * (a stale or unknown object → the same -32002 error); a gas payment, when given, must cover
 * the budget; with none the node makes up a gas coin of the budget for the sender (a leg may
 * split SUI off it). Move calls the fake runs run (`runProgrammable`, never `apply`): status,
 * events and balance changes come back as a node reports them, the gas (`FAKE_GAS_USED`) in
 * effects.gasUsed and in the gas owner's SUI change; an abort is a `failure` status with the
 * error, not an RPC error. A transaction calling Move code the fake does not run: a success
 * with no balance change.
 */
export function dryRunTransaction(
  state: SuiFakeState,
  params: readonly unknown[],
  referenceGasPrice: bigint,
): DryRunTransactionBlockResponse {
  const { bytes, data } = decode(params[0]);
  if (!data.sender) throw invalidParams('transaction has no sender');
  const sender = normalizeSuiAddress(data.sender);
  const gasOwner = normalizeSuiAddress(data.gasData.owner ?? sender);
  const check: ObjectCheck = { errors: [], touched: [] };
  checkInputs(state, data, sender, check);
  const mockGas = (data.gasData.payment ?? []).length === 0;
  if (!mockGas) checkGas(state, data, gasOwner, referenceGasPrice, check);
  if (check.errors.length > 0) throw transactionInputError(check.errors);

  const mock = mockGas ? mockGasCoin(gasOwner, BigInt(data.gasData.budget ?? 0)) : undefined;
  const program = runsMoveCode(data, state.fakeFunctions)
    ? runProgrammable(state, data, sender, state.fakeFunctions, mock)
    : undefined;
  const transaction: SuiFakeTransaction = {
    digest: TransactionDataBuilder.getDigestFromBytes(bytes),
    sender,
    status: program?.status ?? 'success',
    error: program?.error,
    events: program?.events ?? [],
    balanceChanges: program?.balanceChanges ?? [],
    checkpoint: null,
    timestampMs: String(Date.now()),
    bytes,
    signatures: [],
    // A dry run writes nothing (its staged effects never apply).
    changedObjects: [],
  };
  return {
    effects: renderEffects(transaction),
    events: renderEvents(transaction),
    objectChanges: [],
    balanceChanges: renderBalanceChanges(transaction),
    input: renderTransactionData(transaction, state.moveFunctions),
  };
}
