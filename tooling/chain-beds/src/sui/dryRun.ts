import type { DryRunTransactionBlockResponse } from '@mysten/sui/jsonRpc';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { normalizeSuiAddress } from '@mysten/sui/utils';
import type { ObjectCheck } from './execute';
import { checkGas, checkInputs, decode } from './execute';
import { coinTypeKey, SUI_COIN_TYPE } from './ids';
import { FAKE_GAS_CHARGED, renderBalanceChanges, renderEffects, renderEvents } from './render';
import { renderTransactionData } from './renderInput';
import { invalidParams, transactionInputError } from './rpcError';
import { runProgrammable, runsMoveCode } from './runProgrammable';
import type { SuiFakeBalanceChange, SuiFakeState, SuiFakeTransaction } from './state';

/**
 * The sender's SUI change with the gas a mock coin paid: a dry run with no gas payment runs on a
 * coin the node makes up for the sender, and the gas it charges shows in the balance changes.
 */
function withMockGas(
  changes: readonly SuiFakeBalanceChange[],
  sender: string,
): SuiFakeBalanceChange[] {
  const own = (change: SuiFakeBalanceChange) =>
    normalizeSuiAddress(change.owner) === sender &&
    coinTypeKey(change.coinType) === coinTypeKey(SUI_COIN_TYPE);
  const current = changes.find(own)?.amount ?? 0n;
  const rest = changes.filter((change) => !own(change));
  const amount = current - FAKE_GAS_CHARGED;
  return amount === 0n ? rest : [...rest, { owner: sender, coinType: SUI_COIN_TYPE, amount }];
}

/**
 * `sui_dryRunTransactionBlock`: the transaction as `sui_executeTransactionBlock` would run it,
 * with nothing committed and no signature asked. Inputs are checked as execution checks them
 * (a stale or unknown object → the same -32002 error); a gas payment, when given, must cover
 * the budget; with none the node mocks a gas coin for the sender. Move calls the fake runs run
 * (`runProgrammable`, never `apply`): status, events and balance changes come back as a node
 * reports them, the gas (`FAKE_GAS_USED`) in effects.gasUsed and in the gas owner's SUI change;
 * an abort is a `failure` status with the error, not an RPC error.
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

  const program = runsMoveCode(data, state.fakeFunctions)
    ? runProgrammable(state, data, sender, state.fakeFunctions)
    : undefined;
  const changes = program?.balanceChanges ?? [];
  const transaction: SuiFakeTransaction = {
    digest: TransactionDataBuilder.getDigestFromBytes(bytes),
    sender,
    status: program?.status ?? 'success',
    error: program?.error,
    events: program?.events ?? [],
    balanceChanges: mockGas ? withMockGas(changes, gasOwner) : changes,
    checkpoint: null,
    timestampMs: String(Date.now()),
    bytes,
    signatures: [],
  };
  return {
    effects: renderEffects(transaction),
    events: renderEvents(transaction),
    objectChanges: [],
    balanceChanges: renderBalanceChanges(transaction),
    input: renderTransactionData(transaction, state.moveFunctions),
  };
}
