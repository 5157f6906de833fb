import { bcs } from '@mysten/sui/bcs';
import type {
  SuiArgument,
  SuiCallArg,
  SuiTransaction,
  TransactionBlockData,
} from '@mysten/sui/jsonRpc';
import type { Argument, CallArg, Command } from '@mysten/sui/transactions';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64 } from '@mysten/sui/utils';
import type { SuiFakeTransaction } from './state';

function renderArgument(argument: Argument): SuiArgument {
  switch (argument.$kind) {
    case 'GasCoin':
      return 'GasCoin';
    case 'Input':
      return { Input: argument.Input };
    case 'Result':
      return { Result: argument.Result };
    case 'NestedResult':
      return { NestedResult: argument.NestedResult };
  }
}

/**
 * One input as the JSON-RPC API prints it. Pure values stay raw BCS bytes (a number array) with
 * no `valueType`: the fake does not know the Move signature a real node would decode them with.
 */
function renderInput(input: CallArg): SuiCallArg {
  if (input.Pure) return { type: 'pure', value: [...fromBase64(input.Pure.bytes)] };
  const object = input.Object;
  if (object?.SharedObject) {
    return {
      type: 'object',
      objectType: 'sharedObject',
      objectId: object.SharedObject.objectId,
      initialSharedVersion: String(object.SharedObject.initialSharedVersion),
      mutable: object.SharedObject.mutable,
    };
  }
  const ref = object?.ImmOrOwnedObject ?? object?.Receiving;
  if (ref) {
    return {
      type: 'object',
      objectType: object?.Receiving ? 'receiving' : 'immOrOwnedObject',
      objectId: ref.objectId,
      version: String(ref.version),
      digest: ref.digest,
    };
  }
  return { type: 'pure', value: null };
}

function renderCommand(command: Command): SuiTransaction | undefined {
  if (command.MoveCall) {
    return {
      MoveCall: {
        package: command.MoveCall.package,
        module: command.MoveCall.module,
        function: command.MoveCall.function,
        type_arguments: command.MoveCall.typeArguments,
        arguments: command.MoveCall.arguments.map(renderArgument),
      },
    };
  }
  if (command.TransferObjects) {
    const { objects, address } = command.TransferObjects;
    return { TransferObjects: [objects.map(renderArgument), renderArgument(address)] };
  }
  if (command.SplitCoins) {
    const { coin, amounts } = command.SplitCoins;
    return { SplitCoins: [renderArgument(coin), amounts.map(renderArgument)] };
  }
  if (command.MergeCoins) {
    const { destination, sources } = command.MergeCoins;
    return { MergeCoins: [renderArgument(destination), sources.map(renderArgument)] };
  }
  if (command.MakeMoveVec) {
    const { type, elements } = command.MakeMoveVec;
    return { MakeMoveVec: [type, elements.map(renderArgument)] };
  }
  return undefined;
}

/** `transaction.data` of a transaction response (`showInput`). */
export function renderTransactionData(transaction: SuiFakeTransaction): TransactionBlockData {
  if (!transaction.bytes) {
    return {
      messageVersion: 'v1',
      sender: transaction.sender,
      gasData: { payment: [], owner: transaction.sender, price: '1000', budget: '10000000' },
      transaction: { kind: 'ProgrammableTransaction', inputs: [], transactions: [] },
    };
  }
  const data = TransactionDataBuilder.fromBytes(transaction.bytes);
  const transactions: SuiTransaction[] = [];
  for (const command of data.commands) {
    const rendered = renderCommand(command);
    if (rendered) transactions.push(rendered);
  }
  return {
    messageVersion: 'v1',
    sender: data.sender ?? transaction.sender,
    gasData: {
      payment: (data.gasData.payment ?? []).map((ref) => ({
        objectId: ref.objectId,
        version: String(ref.version),
        digest: ref.digest,
      })),
      owner: data.gasData.owner ?? data.sender ?? transaction.sender,
      price: String(data.gasData.price ?? '0'),
      budget: String(data.gasData.budget ?? '0'),
    },
    transaction: {
      kind: 'ProgrammableTransaction',
      inputs: data.inputs.map(renderInput),
      transactions,
    },
  };
}

/** `rawTransaction` (`showRawInput`): BCS `SenderSignedData`, as a node stores it. */
export function renderRawTransaction(transaction: SuiFakeTransaction): string | undefined {
  if (!transaction.bytes) return undefined;
  const value = bcs.TransactionData.parse(transaction.bytes);
  return bcs.SenderSignedData.serialize([
    {
      intentMessage: {
        intent: { scope: { TransactionData: true }, version: { V0: true }, appId: { Sui: true } },
        value,
      },
      txSignatures: [...transaction.signatures],
    },
  ]).toBase64();
}
