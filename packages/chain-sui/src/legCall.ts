import { bcs } from '@mysten/sui/bcs';
import type { InputView } from './shapes';

/** Whether a transaction is a leg's own, judged from its input. */
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

export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((byte, index) => byte === b[index]);
}
