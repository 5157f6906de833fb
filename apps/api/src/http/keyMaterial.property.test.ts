import { randomBytes, randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist as czech } from '@scure/bip39/wordlists/czech';
import { wordlist as english } from '@scure/bip39/wordlists/english';
import { wordlist as french } from '@scure/bip39/wordlists/french';
import { wordlist as italian } from '@scure/bip39/wordlists/italian';
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese';
import { wordlist as korean } from '@scure/bip39/wordlists/korean';
import { wordlist as portuguese } from '@scure/bip39/wordlists/portuguese';
import { wordlist as simplifiedChinese } from '@scure/bip39/wordlists/simplified-chinese';
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish';
import { wordlist as traditionalChinese } from '@scure/bip39/wordlists/traditional-chinese';
import bs58 from 'bs58';
import fc from 'fast-check';
import { redactPath } from './findKeyMaterial';
import { findRefusal, guardHeaders } from './requestGuard';
import type { FieldKind } from './typedFields';
import { BASE58, base58Length, fieldKind, isValidIdentifier } from './typedFields';

// Issue 41: the guard refuses key material in every common encoding wherever it sits in a
// request (a value, a field or parameter name, a header, a path), and never refuses the honest
// look-alikes in the fields typed for them.

const WORDLISTS = {
  english,
  czech,
  french,
  italian,
  japanese,
  korean,
  portuguese,
  simplifiedChinese,
  spanish,
  traditionalChinese,
};

/** Random key bytes (fast-check's bias towards zeros makes degenerate keys no wallet emits). */
const bytes = (length: number) =>
  fc
    .uint8Array({ minLength: length, maxLength: length })
    .filter((value) => new Set(value).size >= length / 4);
const hexOf = (value: Uint8Array) => Buffer.from(value).toString('hex');

/** A 32- or 64-byte key, encoded the ways keys get pasted. */
const keyText: fc.Arbitrary<string> = fc
  .oneof(
    fc
      .tuple(fc.oneof(bytes(32), bytes(64)), fc.constantFrom('', '0x', '0X', 'key', 'pk=', 'my'))
      .chain(([key, prefix]) =>
        fc.constantFrom(
          `${prefix}${hexOf(key)}`,
          `${prefix}${hexOf(key).toUpperCase()}`,
          // Groups of 2, 4 or 8 with one separator.
          ...[2, 4, 8].flatMap((size) =>
            [' ', ':', '-', ',', '_'].map((separator) =>
              hexOf(key)
                .match(new RegExp(`.{${size}}`, 'g'))!
                .join(separator),
            ),
          ),
          [...key].map((byte) => `0x${byte.toString(16).padStart(2, '0')}`).join(', '),
          [...key].join(','),
          JSON.stringify([...key]),
          Buffer.from(key).toString('base64'),
          Buffer.from(key).toString('base64url'),
        ),
      ),
    bytes(64).map((key) => bs58.encode(key)),
    bytes(64).map((key) => `solana:${bs58.encode(key)}`),
  )
  .filter(
    // About 1 in 70 base64url encodings of 32 bytes uses only base58's letters and reads as 32
    // bytes of base58 too: an address's shape, which findKeyMaterial lets pass by design.
    (text) => !(BASE58.test(text) && base58Length(text) === 32),
  );

/** A real BIP-39 phrase in any of the ten wordlists, joined and cased in the usual ways. */
const phraseText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...(Object.keys(WORDLISTS) as (keyof typeof WORDLISTS)[])),
    fc.oneof(bytes(16), bytes(32)),
    fc.constantFrom('space', 'comma', 'dash', 'newline', 'camel', 'glued', 'upper', 'title'),
  )
  .map(([list, entropy, style]) => {
    const words = entropyToMnemonic(entropy, WORDLISTS[list]).split(/[\s\u3000]+/);
    const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
    switch (style) {
      case 'space':
        return words.join(list === 'japanese' ? '\u3000' : ' ');
      case 'comma':
        return words.join(', ');
      case 'dash':
        return words.join('-');
      case 'newline':
        return words.join('\n');
      case 'camel':
        return words.map((word, index) => (index === 0 ? word : title(word))).join('');
      case 'glued':
        return words.join('');
      case 'upper':
        return words.join(' ').toUpperCase();
      case 'title':
        return words.map(title).join(' ');
    }
  });

const secret = fc.oneof(keyText, phraseText);

const refused = (value: unknown, path = 'body') =>
  findRefusal(value, path)?.code === 'KEY_MATERIAL_REFUSED';

describe('key material is refused wherever it sits, in every encoding', () => {
  it('as a value of an untyped field, or inside other text', () => {
    fc.assert(
      fc.property(
        secret,
        fc.constantFrom('note', 'description', 'signedTransaction', 'q'),
        (text, field) => {
          expect(refused({ [field]: text })).toBe(true);
          expect(refused({ [field]: `see ${text} here` })).toBe(true);
          expect(refused({ list: [text] })).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('as a JSON field name or a query parameter name, without echoing it', () => {
    fc.assert(
      fc.property(keyText, (text) => {
        for (const part of ['body', 'query']) {
          const found = findRefusal({ [text]: '1' }, part);
          expect(found?.code).toBe('KEY_MATERIAL_REFUSED');
          expect(JSON.stringify(found)).not.toContain(text);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('in a typed field unless the whole value is a valid identifier of its kind', () => {
    fc.assert(
      fc.property(secret, (text) => {
        for (const field of ['owner', 'ownerAddress', 'txId', 'planId', 'wallet']) {
          const kind = fieldKind(field) as Exclude<FieldKind, 'idempotencyKey'>;
          // A Sui address (0x + 64 hex) or a Solana signature (64 bytes of base58) is one.
          expect({ field, refused: refused({ [field]: text }) }).toEqual({
            field,
            refused: !isValidIdentifier(kind, text),
          });
          expect(refused({ [field]: `${text} ` })).toBe(!isValidIdentifier(kind, text));
        }
        expect(refused({ planId: text })).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('as a header value (X-Request-Id and any other) or a header name', () => {
    fc.assert(
      fc.property(secret, fc.constantFrom('x-request-id', 'user-agent', 'x-note'), (text, name) => {
        expect(() => guardHeaders({ [name]: text })).toThrow(
          expect.objectContaining({ code: 'KEY_MATERIAL_REFUSED' }),
        );
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(
        keyText.filter((text) => /^[0-9A-Za-z_-]+$/.test(text)),
        (text) => {
          const thrown = (() => {
            try {
              guardHeaders({ [`x-${text}`]: '1' });
            } catch (error) {
              return error as Error;
            }
            return undefined;
          })();
          expect(thrown).toMatchObject({ code: 'KEY_MATERIAL_REFUSED' });
          expect(thrown?.message).not.toContain(text);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('in an Idempotency-Key only in the encodings no retry token takes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          bytes(64).map((key) => hexOf(key)),
          bytes(64).map(bs58.encode),
          phraseText,
        ),
        (text) => {
          expect(refused(text, 'header.Idempotency-Key')).toBe(true);
          expect(refused({ idempotencyKey: text })).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('in a path segment: masked in the access log', () => {
    fc.assert(
      fc.property(secret, (text) => {
        const path = `/api/v1/svc/strategies/${encodeURIComponent(text)}`;
        expect(redactPath(path)).toBe('/api/v1/svc/strategies/[redacted]');
        expect(refused({ id: text }, 'path')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('honest look-alikes pass in the fields typed for them', () => {
  const suiAddress = bytes(32).map((value) => `0x${hexOf(value)}`);
  const txHash = bytes(32).map((value) => `0x${hexOf(value)}`);
  const solanaSignature = bytes(64).map((value) => bs58.encode(value));
  const idempotencyKey = fc.oneof(
    bytes(32).map(hexOf),
    bytes(32).map((value) => `0x${hexOf(value)}`),
    bytes(32).map((value) => Buffer.from(value).toString('base64url')),
    fc.constant(null).map(() => randomUUID()),
    fc.tuple(suiAddress, fc.nat()).map(([wallet, nonce]) => `oy_route_${wallet}_${nonce}`),
    // Hex of few letters reads as one short word over and over: no phrase.
    fc
      .constantFrom('ab', 'cafe', 'dead', 'bead', 'face')
      .map((unit) => `oy_route_0x${unit.repeat(64).slice(0, 64)}_1`),
  );

  it('addresses, transaction hashes, signatures, plan ids and idempotency keys', () => {
    fc.assert(
      fc.property(
        suiAddress,
        txHash,
        solanaSignature,
        idempotencyKey,
        (address, hash, signature, key) => {
          const body = {
            owner: address,
            ownerAddress: address,
            destinationAddress: address,
            wallets: [address, address.toUpperCase().replace('0X', '0x')],
            token: `${address}::usdc::USDC`,
            txId: hash,
            sourceTxId: signature,
            planId: `plan_${randomBytes(16).toString('hex')}`,
            idempotencyKey: key,
            owner2: Keypair.generate().publicKey.toBase58(),
          };
          expect(findRefusal(body, 'body')).toBeUndefined();
          expect(findRefusal({ address }, 'path')).toBeUndefined();
          expect(findRefusal({ wallet: address }, 'query')).toBeUndefined();
          expect(() =>
            guardHeaders({ 'idempotency-key': key, 'x-request-id': randomUUID() }),
          ).not.toThrow();
          expect(redactPath(`/api/v1/wallets/${address}/route`)).toBe(
            `/api/v1/wallets/${address}/route`,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('plain text, numbers, UUID lists and long amounts', () => {
    for (const text of [
      'Pay the residual yield of my agent wallet to the payees every month please',
      `${randomUUID()},${randomUUID()},${randomUUID()}`,
      '1'.repeat(80),
      Array.from({ length: 40 }, (_, index) => String(index * 1000)).join(','),
      '2026-12-06T02:15:00.000Z',
    ]) {
      expect(findRefusal({ note: text }, 'body')).toBeUndefined();
    }
  });
});
