import { bcs } from '@mysten/sui/bcs';
import { normalizeSuiAddress, toHex } from '@mysten/sui/utils';
import { normalizeSuiOwner } from './address';
import type { RouterAction } from './router';
import { ROUTER_MODULE, routerCallArguments, routerFunction } from './router';
import type { InputView, MoveCallView, TransactionInputView } from './shapes';

/** The router call a leg's own transaction makes. */
export interface ExpectedLegCall {
  readonly packageId: string;
  readonly action: RouterAction;
  readonly planBytes: Uint8Array;
  readonly owner: string;
  /** Venue legs: the adapter the call must name. */
  readonly adapter: string | undefined;
}

export type LegCallMatch =
  { readonly status: 'matched' } | { readonly status: 'mismatch'; readonly reason: string };

function isByteArray(value: unknown): value is number[] {
  return (
    Array.isArray(value) &&
    value.every(
      (byte) => typeof byte === 'number' && Number.isInteger(byte) && byte >= 0 && byte < 256,
    )
  );
}

/**
 * A `vector<u8>` pure input: printed decoded (`valueType: 'vector<u8>'`, the bytes), or raw
 * (`valueType: null`, BCS: length then bytes) when the node could not type it.
 */
export function pureBytes(input: InputView | undefined): Uint8Array | undefined {
  if (input?.kind !== 'pure' || !isByteArray(input.value)) return undefined;
  if (input.valueType === 'vector<u8>') return new Uint8Array(input.value);
  if (input.valueType !== null) return undefined;
  try {
    const raw = new Uint8Array(input.value);
    const bytes = new Uint8Array(bcs.vector(bcs.u8()).parse(raw));
    const encoded = bcs
      .vector(bcs.u8())
      .serialize([...bytes])
      .toBytes();
    return encoded.length === raw.length ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** An `address` pure input, decoded (0x hex) or raw (32 bytes), in canonical form. */
function pureAddress(input: InputView | undefined): string | undefined {
  if (input?.kind !== 'pure') return undefined;
  if (input.valueType === 'address' && typeof input.value === 'string') {
    return normalizeSuiOwner(input.value);
  }
  if (input.valueType === null && isByteArray(input.value) && input.value.length === 32) {
    return normalizeSuiAddress(toHex(new Uint8Array(input.value)));
  }
  return undefined;
}

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((byte, index) => byte === b[index]);
}

function argument(tx: TransactionInputView, call: MoveCallView, position: number) {
  const index = call.inputs[position];
  return index === undefined ? undefined : tx.inputs[index];
}

/**
 * Whether a transaction is the leg's own, read from its input alone (a failed transaction emits
 * no events): sent by the owner, calling our router's entry point for the leg, with this plan's
 * 16-byte `plan_id` and, through a venue, the venue's adapter. Only then may its failure fail
 * the leg; anything else is someone else's transaction.
 *
 * @example
 * matchLegCall(view.input, { packageId, action: 'deposit', planBytes, owner, adapter: undefined })
 * // { status: 'matched' } or { status: 'mismatch', reason: 'sent by 0x…, not the owner' }
 */
export function matchLegCall(tx: TransactionInputView, expected: ExpectedLegCall): LegCallMatch {
  const sender = normalizeSuiOwner(tx.sender);
  if (sender !== expected.owner) {
    return { status: 'mismatch', reason: `sent by ${tx.sender}, not the owner` };
  }
  const throughVenue = expected.adapter !== undefined;
  const name = routerFunction(expected.action, throughVenue);
  const positions = routerCallArguments(throughVenue);
  const calls = tx.moveCalls.filter(
    (call) =>
      normalizeSuiOwner(call.package) === expected.packageId &&
      call.module === ROUTER_MODULE &&
      call.function === name,
  );
  if (calls.length === 0) {
    return { status: 'mismatch', reason: `no ${ROUTER_MODULE}::${name} call of our package` };
  }
  const forPlan = calls.filter((call) =>
    sameBytes(pureBytes(argument(tx, call, positions.planId)), expected.planBytes),
  );
  if (forPlan.length === 0) {
    return { status: 'mismatch', reason: `the ${name} call is not for this plan` };
  }
  const adapterPosition = positions.adapter;
  if (
    adapterPosition !== undefined &&
    !forPlan.some((call) => pureAddress(argument(tx, call, adapterPosition)) === expected.adapter)
  ) {
    return { status: 'mismatch', reason: `the ${name} call names another adapter` };
  }
  return { status: 'matched' };
}
