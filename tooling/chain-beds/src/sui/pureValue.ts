import { pureBcsSchemaFromTypeName } from '@mysten/sui/bcs';
import type { PureTypeName } from '@mysten/sui/bcs';

// A full node prints a pure input decoded with the Move type it is passed as: `valueType` plus
// the value as JSON (u8–u32 numbers, u64–u256 decimal strings, addresses 0x hex, vectors arrays,
// strings text — what `bcs.parse` gives). When it cannot tell the type it prints the raw bytes.

const STRINGS = new Set(['0x1::string::String', '0x1::ascii::String']);
const SCALARS = new Set(['bool', 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', 'address']);

/** The BCS schema name of a pure Move type, or undefined for anything that is never pure. */
function schemaName(type: string): string | undefined {
  if (SCALARS.has(type)) return type;
  if (STRINGS.has(type)) return 'string';
  const inner = /^vector<(.+)>$/.exec(type)?.[1];
  const element = inner === undefined ? undefined : schemaName(inner);
  return element === undefined ? undefined : `vector<${element}>`;
}

/**
 * The pure type a Move parameter names (`vector<u8>`, `u64`, `address`, `0x1::string::String`,
 * a reference to one), or undefined for objects and type parameters, which are never pure.
 */
export function pureParameterType(parameter: string): string | undefined {
  const type = parameter.replace(/^&(mut\s+)?/, '').trim();
  return schemaName(type) === undefined ? undefined : type;
}

/** A pure input as the JSON-RPC API prints it (`SuiCallArg` of type `pure`). */
export interface RenderedPureValue {
  readonly type: 'pure';
  readonly valueType: string | null;
  readonly value: unknown;
}

/**
 * One pure input: decoded with `type` (from `pureParameterType`) when the bytes are exactly one
 * value of it, else the raw bytes with a null `valueType`.
 */
export function renderPureValue(bytes: Uint8Array, type: string | undefined): RenderedPureValue {
  const name = type === undefined ? undefined : schemaName(type);
  if (type !== undefined && name !== undefined) {
    try {
      const schema = pureBcsSchemaFromTypeName(name as PureTypeName);
      const value: unknown = schema.parse(bytes);
      if (schema.serialize(value as never).toBytes().length === bytes.length) {
        return { type: 'pure', valueType: type, value };
      }
    } catch {
      // not one value of this type: printed raw, as a node does when it cannot decode
    }
  }
  return { type: 'pure', valueType: null, value: [...bytes] };
}
