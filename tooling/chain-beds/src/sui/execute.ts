import type { SuiTransactionBlockResponse } from '@mysten/sui/jsonRpc';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress } from '@mysten/sui/utils';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import { coinTypeKey, SUI_COIN_TYPE } from './ids';
import type { TransactionOptions } from './render';
import { renderTransaction } from './render';
import { invalidParams, transactionInputError } from './rpcError';
import { runProgrammable, runsMoveCode } from './runProgrammable';
import type { SuiFakeObject, SuiFakeState } from './state';

type Decoded = TransactionDataBuilder;

export function decode(txBytes: unknown): { bytes: Uint8Array; data: Decoded } {
  if (typeof txBytes !== 'string') throw invalidParams('tx_bytes must be base64');
  try {
    const bytes = fromBase64(txBytes);
    return { bytes, data: TransactionDataBuilder.fromBytes(bytes) };
  } catch {
    throw invalidParams('Deserialization error: tx_bytes are not a TransactionData');
  }
}

async function signerAddresses(bytes: Uint8Array, signatures: unknown): Promise<Set<string>> {
  if (!Array.isArray(signatures) || signatures.some((item) => typeof item !== 'string')) {
    throw invalidParams('signatures must be an array of base64 strings');
  }
  const signers = new Set<string>();
  for (const signature of signatures as string[]) {
    try {
      const publicKey = await verifyTransactionSignature(bytes, signature);
      signers.add(publicKey.toSuiAddress());
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw transactionInputError([`Invalid user signature: ${reason}`]);
    }
  }
  return signers;
}

export interface ObjectCheck {
  readonly errors: string[];
  readonly touched: SuiFakeObject[];
}

function checkOwned(
  state: SuiFakeState,
  ref: { objectId: string; version: string | number; digest: string },
  owners: readonly string[],
  check: ObjectCheck,
): SuiFakeObject | undefined {
  const objectId = normalizeSuiAddress(ref.objectId);
  const object = state.objects.get(objectId);
  const version = BigInt(ref.version);
  if (!object) {
    check.errors.push(`Could not find the referenced object ${objectId} at version ${version}`);
    return undefined;
  }
  if (object.version !== version || object.digest !== ref.digest) {
    check.errors.push(
      `Object ID ${objectId} Version ${version} Digest ${ref.digest} is not available for ` +
        `consumption, current version: ${object.version}`,
    );
    return undefined;
  }
  const owner = typeof object.owner === 'object' ? object.owner : undefined;
  if (object.owner !== 'Immutable') {
    if (!owner || !('AddressOwner' in owner) || !owners.includes(owner.AddressOwner)) {
      check.errors.push(`Object ${objectId} is not owned by the transaction's signers`);
      return undefined;
    }
  }
  check.touched.push(object);
  return object;
}

export function checkInputs(
  state: SuiFakeState,
  data: Decoded,
  sender: string,
  check: ObjectCheck,
) {
  for (const input of data.inputs) {
    const object = input.Object;
    if (object?.ImmOrOwnedObject) checkOwned(state, object.ImmOrOwnedObject, [sender], check);
    if (object?.SharedObject) {
      const objectId = normalizeSuiAddress(object.SharedObject.objectId);
      const stored = state.objects.get(objectId);
      const owner = stored && typeof stored.owner === 'object' ? stored.owner : undefined;
      const initial = owner && 'Shared' in owner ? owner.Shared.initial_shared_version : undefined;
      if (initial === undefined || initial !== String(object.SharedObject.initialSharedVersion)) {
        check.errors.push(`Could not find the referenced shared object ${objectId}`);
      } else if (stored && object.SharedObject.mutable) {
        check.touched.push(stored);
      }
    }
  }
}

export function checkGas(
  state: SuiFakeState,
  data: Decoded,
  gasOwner: string,
  referenceGasPrice: bigint,
  check: ObjectCheck,
) {
  const price = BigInt(data.gasData.price ?? 0);
  const budget = BigInt(data.gasData.budget ?? 0);
  if (price < referenceGasPrice) {
    check.errors.push(`Gas price ${price} under reference gas price (RGP) ${referenceGasPrice}`);
  }
  const payment = data.gasData.payment ?? [];
  if (payment.length === 0) check.errors.push('Missing gas payment');
  let balance = 0n;
  for (const ref of payment) {
    const coin = checkOwned(state, ref, [gasOwner], check);
    if (coin && coin.coin?.coinType !== coinTypeKey(SUI_COIN_TYPE)) {
      check.errors.push(`Gas object ${coin.objectId} is not a SUI coin`);
    }
    balance += coin?.coin?.balance ?? 0n;
  }
  if (payment.length > 0 && balance < budget) {
    check.errors.push(
      `Balance of gas object ${balance} is lower than the needed amount: ${budget}`,
    );
  }
}

/**
 * `sui_executeTransactionBlock`. Checks what a validator checks before execution — every
 * signature over the bytes, the sender's (and sponsor's) signature present, owned inputs and gas
 * at their current version, shared inputs known, gas price and budget — then bumps the versions
 * of the objects it used. When every Move call is one the fake runs (`defineFakeMoveFunction`,
 * e.g. a bed pool's swap), the commands run for real (`runProgrammable`): coins move, balance
 * changes and events are recorded, a Move abort fails it with nothing moved. Otherwise no Move
 * code runs: a success with no events, and a test lays down the effects with
 * `recordTransaction({ digest, ... })`.
 */
export async function executeTransaction(
  state: SuiFakeState,
  params: readonly unknown[],
  referenceGasPrice: bigint,
): Promise<SuiTransactionBlockResponse> {
  const { bytes, data } = decode(params[0]);
  const options = (params[2] ?? {}) as TransactionOptions;
  const digest = TransactionDataBuilder.getDigestFromBytes(bytes);
  const known = state.transactions.get(digest);
  if (known) return renderTransaction(known, state.moveFunctions, options, false);

  const signers = await signerAddresses(bytes, params[1]);
  if (!data.sender) throw invalidParams('transaction has no sender');
  const sender = normalizeSuiAddress(data.sender);
  const gasOwner = normalizeSuiAddress(data.gasData.owner ?? sender);
  for (const required of new Set([sender, gasOwner])) {
    if (!signers.has(required)) {
      throw transactionInputError([
        `Invalid user signature: Required Signature from ${required} is absent ${JSON.stringify([...signers])}`,
      ]);
    }
  }

  const check: ObjectCheck = { errors: [], touched: [] };
  checkInputs(state, data, sender, check);
  checkGas(state, data, gasOwner, referenceGasPrice, check);
  if (check.errors.length > 0) throw transactionInputError(check.errors);

  const program = runsMoveCode(data, state.fakeFunctions)
    ? runProgrammable(state, data, sender, state.fakeFunctions)
    : undefined;
  const lamport = check.touched.reduce((max, o) => (o.version > max ? o.version : max), 0n) + 1n;
  for (const object of check.touched) state.mutate(object, lamport, digest);
  state.takeObjectChanges();
  program?.apply(lamport, digest);
  const changedObjects = state.takeObjectChanges();
  state.recordTransaction(
    program
      ? {
          digest,
          sender,
          transaction: bytes,
          status: program.status,
          ...(program.error === undefined ? {} : { error: program.error }),
          events: program.events,
          balanceChanges: program.balanceChanges,
          changedObjects,
        }
      : { digest, sender, transaction: bytes },
    params[1] as string[],
  );
  const stored = state.transactions.get(digest);
  if (!stored) throw new Error('unreachable: transaction just recorded');
  const response = renderTransaction(stored, state.moveFunctions, options, false);
  return params[3] === 'WaitForLocalExecution'
    ? { ...response, confirmedLocalExecution: true }
    : response;
}
