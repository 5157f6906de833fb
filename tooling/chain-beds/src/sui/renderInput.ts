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
import { moveFunctionKey } from './ids';
import { pureParameterType, renderPureValue } from './pureValue';
import type { SuiFakeTransaction } from './state';

/** Move function signatures the fake knows, by `moveFunctionKey` → parameter types. */
export type MoveSignatures = ReadonlyMap<string, readonly string[]>;

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
 * The Move type of each pure input, as a node resolves it from the commands that use it: the
 * parameter of a known Move function, the recipient of `TransferObjects` (address), the amounts
 * of `SplitCoins` (u64). The first use decides.
 */
function pureInputTypes(commands: readonly Command[], signatures: MoveSignatures) {
  const types = new Map<number, string>();
  const note = (argument: Argument, type: string | undefined) => {
    if (argument.$kind === 'Input' && type !== undefined && !types.has(argument.Input)) {
      types.set(argument.Input, type);
    }
  };
  for (const command of commands) {
    if (command.MoveCall) {
      const call = command.MoveCall;
      const parameters = signatures.get(moveFunctionKey(call.package, call.module, call.function));
      call.arguments.forEach((argument, index) => {
        const parameter = parameters?.[index];
        note(argument, parameter === undefined ? undefined : pureParameterType(parameter));
      });
    } else if (command.TransferObjects) {
      note(command.TransferObjects.address, 'address');
    } else if (command.SplitCoins) {
      for (const amount of command.SplitCoins.amounts) note(amount, 'u64');
    }
  }
  return types;
}

/**
 * One input as the JSON-RPC API prints it. A pure value is decoded with its Move type when the
 * fake can tell it (see `pureInputTypes`), else printed as raw BCS bytes with a null `valueType`,
 * as a node does for a value it cannot type.
 */
function renderInput(input: CallArg, pureType: string | undefined): SuiCallArg {
  if (input.Pure) return renderPureValue(fromBase64(input.Pure.bytes), pureType);
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

/**
 * `transaction.data` of a transaction response (`showInput`): the programmable transaction of the
 * stored bytes, or an empty one for a transaction recorded without them.
 */
export function renderTransactionData(
  transaction: SuiFakeTransaction,
  signatures: MoveSignatures,
): TransactionBlockData {
  if (!transaction.bytes) {
    return {
      messageVersion: 'v1',
      sender: transaction.sender,
      gasData: { payment: [], owner: transaction.sender, price: '1000', budget: '10000000' },
      transaction: { kind: 'ProgrammableTransaction', inputs: [], transactions: [] },
    };
  }
  const data = TransactionDataBuilder.fromBytes(transaction.bytes);
  const pureTypes = pureInputTypes(data.commands, signatures);
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
      inputs: data.inputs.map((input, index) => renderInput(input, pureTypes.get(index))),
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
