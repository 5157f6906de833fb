import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { JsonValue } from './legBytesDigest';
import { canonicalJson, legBytesDigest } from './legBytesDigest';

// A leg's bytes digest is the same whatever order the EVM request's keys are served in (the
// plan store, PostgreSQL JSONB, keeps them in its own), and changes with every field.
const ENCODING = 'evm-transaction-request';
const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((array) => {
    let text = '0x';
    for (const byte of array) text += byte.toString(16).padStart(2, '0');
    return text;
  });
const request = fc.record({
  chainId: fc.integer({ min: 1, max: 2 ** 40 }),
  from: hex(20),
  to: hex(20),
  data: fc.integer({ min: 0, max: 200 }).chain(hex),
  value: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
});
type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;
const FIELDS = ['chainId', 'from', 'to', 'data', 'value'] as const;

/** `transaction` rebuilt with its keys in the order `keys`. */
const inOrder = (transaction: Request, keys: readonly (keyof Request)[]) =>
  Object.fromEntries(keys.map((key) => [key, transaction[key]]));
const digestOf = (transaction: JsonValue) => legBytesDigest({ encoding: ENCODING, transaction });

describe('legBytesDigest', () => {
  it('does not depend on the order of the request keys', () => {
    fc.assert(
      fc.property(request, fc.shuffledSubarray([...FIELDS], { minLength: 5 }), (tx, order) => {
        expect(digestOf(inOrder(tx, order))).toBe(digestOf(tx));
      }),
    );
  });

  it('is sha256 of the encoding and the request with its keys sorted, read back from JSONB order', () => {
    const tx = {
      chainId: 8453,
      from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      to: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      data: '0x095ea7b3',
      value: '0',
    };
    const text = `${ENCODING}\n{"chainId":8453,"data":"0x095ea7b3","from":"${tx.from}","to":"${tx.to}","value":"0"}`;
    const expected = `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
    expect(digestOf(tx)).toBe(expected);
    expect(digestOf(inOrder(tx, ['to', 'data', 'from', 'value', 'chainId']))).toBe(expected);
  });

  it('changes when any field of the request changes', () => {
    const changed = (field: (typeof FIELDS)[number], tx: Request): Request => {
      switch (field) {
        case 'chainId':
          return { ...tx, chainId: tx.chainId + 1 };
        case 'value':
          return { ...tx, value: String(BigInt(tx.value) + 1n) };
        default: {
          // One hex digit flipped, or one byte more.
          const text = tx[field];
          const last = text.at(-1);
          const flipped = last === '0' ? '1' : '0';
          return { ...tx, [field]: text.length > 2 ? `${text.slice(0, -1)}${flipped}` : '0x00' };
        }
      }
    };
    fc.assert(
      fc.property(request, fc.constantFrom(...FIELDS), (tx, field) => {
        expect(digestOf(changed(field, tx))).not.toBe(digestOf(tx));
      }),
    );
  });

  it('changes with the encoding, and digests a string transaction as it is', () => {
    fc.assert(
      fc.property(fc.string(), (transaction) => {
        const text = `solana-v0-base64\n${transaction}`;
        expect(legBytesDigest({ encoding: 'solana-v0-base64', transaction })).toBe(
          `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`,
        );
        expect(legBytesDigest({ encoding: 'sui-transaction-json', transaction })).not.toBe(
          legBytesDigest({ encoding: 'solana-v0-base64', transaction }),
        );
      }),
    );
  });
});

describe('canonicalJson', () => {
  it('is JSON equal to its input, and the same text for any order of keys at any depth', () => {
    const isList = (value: JsonValue): value is readonly JsonValue[] => Array.isArray(value);
    const shuffle = (value: JsonValue, seed: number): JsonValue => {
      if (isList(value)) return value.map((item) => shuffle(item, seed));
      if (value === null || typeof value !== 'object') return value;
      const keys = Object.keys(value);
      const rotated = keys.map((_, index) => keys[(index + seed) % keys.length] ?? '');
      return Object.fromEntries(
        rotated.reverse().map((key) => [key, shuffle(value[key] ?? null, seed)]),
      );
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const json = value as JsonValue;
        const text = canonicalJson(json);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(json)));
        expect(canonicalJson(shuffle(json, seed))).toBe(text);
      }),
    );
  });

  it('sorts keys by UTF-16 code units and leaves undefined members out', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], é: 2, B: { z: undefined, y: '1' } })).toBe(
      '{"B":{"y":"1"},"a":[true,null,"x"],"b":1,"é":2}',
    );
  });
});
