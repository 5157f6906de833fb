import { sha256, stringToBytes } from 'viem';

/** A JSON value as a plan document carries it (parsed JSON: no functions, bigints, dates). */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue | undefined };

// `Array.isArray` does not narrow a readonly array out of a union.
const isArray = (value: JsonValue): value is readonly JsonValue[] => Array.isArray(value);

/**
 * Canonical JSON text of a JSON value (RFC 8785's rules for what plans carry): no whitespace,
 * object keys sorted by their UTF-16 code units at every depth, members whose value is
 * `undefined` left out, strings and numbers as `JSON.stringify` writes them. Two values equal
 * as JSON have the same text whatever order their keys came in (a store such as PostgreSQL's
 * JSONB keeps keys in an order of its own).
 */
export function canonicalJson(value: JsonValue): string {
  if (isArray(value)) {
    return `[${value.map((item: JsonValue | undefined) => canonicalJson(item ?? null)).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const object: { readonly [key: string]: JsonValue | undefined } = value;
    const members = Object.keys(object)
      .sort()
      .flatMap((key) => {
        const member = object[key];
        return member === undefined ? [] : [`${JSON.stringify(key)}:${canonicalJson(member)}`];
      });
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `sha256:<hex>` of a text's UTF-8 bytes: never a bare 64-hex string (a private key's shape). */
const sha256Digest = (text: string): string => `sha256:${sha256(stringToBytes(text)).slice(2)}`;

/**
 * The digest binding a leg's simulated outcome to its unsigned bytes, the one the server's
 * simulation stores (`simulation.legs[].bytesDigest`) and `verifyPlan` recomputes:
 * `sha256:` of `<encoding>\n<transaction>`, the transaction as is when it is a string (Solana
 * base64, Sui JSON or BCS) and as its canonical JSON (`canonicalJson`) when it is an object (an
 * EVM request): every field counts, the order its keys are served in does not.
 */
export function legBytesDigest(leg: {
  readonly encoding: string;
  readonly transaction: JsonValue;
}): string {
  const { transaction } = leg;
  const text = typeof transaction === 'string' ? transaction : canonicalJson(transaction);
  return sha256Digest(`${leg.encoding}\n${text}`);
}
