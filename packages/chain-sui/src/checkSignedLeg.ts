import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction, TransactionDataBuilder } from '@mysten/sui/transactions';
import type { TransactionData } from '@mysten/sui/transactions';
import { normalizeStructTag, normalizeSuiAddress, toBase64 } from '@mysten/sui/utils';
import type { PreparedLeg, SignedLegCheck, SignedTransaction } from '@yieldrouter/schemas';
import { decodeSignedSui, suiSignatureProblem } from './signedBytes';
import { SUI_FRAMEWORK } from './wallet/walletProof';

const mismatch = (reason: string): SignedLegCheck => ({ status: 'mismatch', reason });

type Data = Pick<TransactionData, 'inputs' | 'commands'>;

function moveCalls(data: Data, packages?: ReadonlySet<string>): string[] {
  return data.commands.flatMap((command) => {
    const call = command.MoveCall;
    if (!call) return [];
    const pkg = normalizeSuiAddress(call.package);
    if (packages && !packages.has(pkg)) return [];
    const types = call.typeArguments.map((type) => normalizeStructTag(type)).join(',');
    return [`${pkg}::${call.module}::${call.function}<${types}>`];
  });
}

const pureValues = (data: Data) =>
  data.inputs.flatMap((input) => (input.Pure ? [input.Pure.bytes] : []));

function objectIds(data: Data): string[] {
  return data.inputs.flatMap((input) => {
    const id =
      input.UnresolvedObject?.objectId ??
      input.Object?.SharedObject?.objectId ??
      input.Object?.ImmOrOwnedObject?.objectId ??
      input.Object?.Receiving?.objectId;
    return id ? [normalizeSuiAddress(id)] : [];
  });
}

/** Every element of `wanted` in `given`, counting repeats. */
function containsAll(given: readonly string[], wanted: readonly string[]): boolean {
  const left = [...given];
  return wanted.every((value) => {
    const at = left.indexOf(value);
    if (at < 0) return false;
    left.splice(at, 1);
    return true;
  });
}

/** Why the resolved bytes are not the unresolved prepared leg, or undefined when they are. */
function resolvedDiffers(prepared: Data, signed: Data): string | undefined {
  const calls = moveCalls(prepared);
  if (calls.length === 0) {
    // A wallet or transfer leg calls no package: the wallet may add the framework's coin handling only.
    const foreign = moveCalls(signed).find((call) => !call.startsWith(`${SUI_FRAMEWORK}::`));
    if (foreign)
      return `a wallet or transfer leg calls no package, the signed one calls ${foreign}`;
  }
  const packages = new Set(calls.map((call) => call.split('::')[0] ?? ''));
  if (moveCalls(signed, packages).join('|') !== calls.join('|')) {
    return 'the Move calls differ from the prepared ones';
  }
  if (!containsAll(pureValues(signed), pureValues(prepared))) {
    return 'an argument of the prepared leg (plan id, amount, address) is missing or changed';
  }
  if (!containsAll(objectIds(signed), objectIds(prepared))) {
    return 'an object of the prepared leg (a venue object) is missing';
  }
  return undefined;
}

/**
 * The Sui rule: the sender is the plan owner and every signature verifies over the bytes (the
 * sender's and the gas owner's among them). A leg prepared as final bytes must be signed as is.
 * A leg prepared unresolved (JSON, the wallet picks coins and gas) must keep, in order, the
 * prepared Move calls into the packages it calls (the venue's package; same functions and type
 * arguments), and every prepared pure argument (the plan id, amounts, the owner's address) and
 * object (the venue's shared objects); the wallet may add coin handling and gas around
 * them. A wallet leg (no venue) prepares no Move call: its signed bytes may call nothing outside
 * the Sui framework. The transaction id is the digest.
 *
 * @example
 * const check = await checkSignedSuiLeg(client, { transaction, signatures }, leg);
 */
export async function checkSignedSuiLeg(
  client: SuiJsonRpcClient | undefined,
  signed: SignedTransaction,
  leg: PreparedLeg,
): Promise<SignedLegCheck> {
  const decoded = decodeSignedSui(signed.transaction);
  const owner = normalizeSuiAddress(leg.owner);
  if (decoded.sender !== owner) {
    return mismatch(`the sender is ${decoded.sender}, not the plan owner ${owner}`);
  }
  const { payload } = leg;
  if (payload.encoding === 'sui-transaction-bcs-base64') {
    if (toBase64(decoded.bytes) !== payload.transaction) {
      return mismatch(`the signed bytes are not the prepared bytes of ${leg.planId}`);
    }
  } else if (payload.encoding === 'sui-transaction-json') {
    const differs = resolvedDiffers(Transaction.from(payload.transaction).getData(), decoded.data);
    if (differs) return mismatch(`not the prepared leg of ${leg.planId}: ${differs}`);
  } else {
    return mismatch(`the leg is ${payload.encoding}, not a Sui transaction`);
  }
  const problem = await suiSignatureProblem(decoded, signed.signatures ?? [], client);
  if (problem) return mismatch(problem);
  return { status: 'ok', txId: TransactionDataBuilder.getDigestFromBytes(decoded.bytes) };
}
