import { Transaction } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress, toHex as suiHex } from '@mysten/sui/utils';
import type { LegCheck } from './legCheck';
import { planIdBytes, sameBytes } from './planIdBytes';

type TransactionData = ReturnType<Transaction['getData']>;
type Argument = TransactionData['commands'][number] extends infer C
  ? C extends { TransferObjects: { address: infer A } }
    ? A
    : never
  : never;

export const normalizeSuiAddressOrKeep = (address: string): string =>
  /^0x[0-9a-fA-F]{1,64}$/.test(address) ? normalizeSuiAddress(address) : address;

/** The bytes of a pure input an argument points at (resolved or not), if it is one. */
function pureBytes(data: TransactionData, argument: Argument | undefined): Uint8Array | undefined {
  if (!argument || argument.$kind !== 'Input') return undefined;
  const input = data.inputs[argument.Input];
  if (input?.$kind === 'Pure') return fromBase64(input.Pure.bytes);
  return undefined;
}

/** A pure input's value when the builder left it unresolved (an address string, an amount). */
function unresolvedValue(data: TransactionData, argument: Argument | undefined): unknown {
  if (!argument || argument.$kind !== 'Input') return undefined;
  const input = data.inputs[argument.Input];
  return input?.$kind === 'UnresolvedPure' ? input.UnresolvedPure.value : undefined;
}

const u64 = (bytes: Uint8Array | undefined): bigint | undefined =>
  bytes?.length === 8
    ? new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true)
    : undefined;

function addressOf(data: TransactionData, argument: Argument): string | undefined {
  const bytes = pureBytes(data, argument);
  if (bytes?.length === 32) return normalizeSuiAddress(suiHex(bytes));
  const value = unresolvedValue(data, argument);
  return typeof value === 'string' ? normalizeSuiAddressOrKeep(value) : undefined;
}

function amountOf(data: TransactionData, argument: Argument): bigint | undefined {
  const value = unresolvedValue(data, argument);
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' || (typeof value === 'string' && /^[0-9]+$/.test(value))) {
    return BigInt(value);
  }
  return u64(pureBytes(data, argument));
}

function parse(check: LegCheck): TransactionData | undefined {
  const transaction = check.leg.transaction;
  try {
    if (typeof transaction !== 'string') throw new Error('not a Sui transaction');
    return Transaction.from(transaction).getData();
  } catch {
    check.fail('undecodable', 'the leg is not a Sui transaction (JSON or BCS base64)');
    return undefined;
  }
}

/**
 * A Sui leg (`sui-transaction-json` or `sui-transaction-bcs-base64`): the owner sends it and pays
 * its gas, the plan id is a `vector<u8>` input, every Move call is into a listed package, every
 * object it transfers goes to the owner or a listed party, and no coin it draws is larger than
 * the leg (a deposit draws exactly its amount).
 */
export function verifySuiLeg(check: LegCheck): void {
  const data = parse(check);
  if (!data) return;
  const owner = check.expect.owner;
  const sender = data.sender ? normalizeSuiAddress(data.sender) : undefined;
  if (sender !== owner)
    check.fail('sender_not_owner', `the sender is ${String(sender)}, not the owner`);
  const gasOwner = data.gasData.owner ? normalizeSuiAddress(data.gasData.owner) : undefined;
  if (gasOwner !== undefined && gasOwner !== owner) {
    check.fail('sender_not_owner', `gas is paid by ${gasOwner}, not the owner`);
  }
  const expected = planIdBytes(check.planId);
  const tag = expected ? Uint8Array.of(16, ...expected) : undefined;
  const tagged = data.inputs.some(
    (input) => input.$kind === 'Pure' && tag && sameBytes(fromBase64(input.Pure.bytes), tag),
  );
  if (!tagged)
    check.fail('plan_tag_missing', `no vector<u8> input with the plan id ${check.planId}`);
  const drawn: bigint[] = [];
  for (const command of data.commands) {
    switch (command.$kind) {
      case 'MoveCall': {
        const call = command.MoveCall;
        const target = `${call.module}::${call.function}`;
        check.venueCall(normalizeSuiAddress(call.package), target, { exact: false });
        break;
      }
      case 'TransferObjects': {
        const to =
          addressOf(data, command.TransferObjects.address) ?? 'an address computed on chain';
        check.effects.push({ kind: 'send_object', to });
        if (!check.mayReceive(to)) {
          check.fail(
            'unknown_destination',
            `sends objects to ${to}, a party the owner did not list`,
          );
        }
        break;
      }
      case 'SplitCoins':
        for (const amount of command.SplitCoins.amounts) {
          const value = amountOf(data, amount);
          if (value === undefined)
            check.fail('undecodable', 'a coin split of an unreadable amount');
          else drawn.push(value);
        }
        break;
      case '$Intent': {
        const intent = command.$Intent;
        const balance = intent.data['balance'];
        if (intent.name !== 'CoinWithBalance') {
          check.fail('unknown_call', `the intent ${intent.name} is not one plans use`);
        } else if (
          typeof balance === 'bigint' ||
          typeof balance === 'string' ||
          typeof balance === 'number'
        ) {
          drawn.push(BigInt(balance));
        }
        break;
      }
      case 'MergeCoins':
        break;
      default:
        check.fail('unknown_call', `the command ${command.$kind} is not one plans make`);
    }
  }
  const over = drawn.find((amount) => amount > check.amount);
  if (over !== undefined) {
    check.fail(
      'amount_mismatch',
      `draws a coin of ${over}, more than the leg's ${check.leg.amountMicros}`,
    );
  } else if (check.leg.action === 'deposit' && !drawn.includes(check.amount)) {
    check.fail('amount_mismatch', `draws no coin of the leg's ${check.leg.amountMicros}`);
  }
}
