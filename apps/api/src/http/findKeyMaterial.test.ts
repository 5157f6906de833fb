import { randomBytes } from 'node:crypto';
import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import fc from 'fast-check';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { keyMaterialKind, redactPath } from './findKeyMaterial';
import { findRefusal } from './requestGuard';

/** The key-material finding of the request guard, as `{ path, kind }`. */
function findKeyMaterial(value: unknown, path: string) {
  const found = findRefusal(value, path);
  return found?.code === 'KEY_MATERIAL_REFUSED'
    ? { path: found.path, kind: found.reason.replace(/^looks like /, '') }
    : undefined;
}

const PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';

const keyBytes = fc.oneof(
  fc.uint8Array({ minLength: 64, maxLength: 64 }),
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
);

/** Every way a key tends to be pasted. */
const keyTexts = keyBytes.chain((bytes) =>
  fc.constantFrom(
    Buffer.from(bytes).toString('hex'),
    `0x${Buffer.from(bytes).toString('hex')}`,
    Buffer.from(bytes).toString('base64'),
    JSON.stringify(Array.from(bytes)),
    ...(bytes.length === 64 ? [bs58.encode(bytes)] : []),
  ),
);

/** A signed Solana transfer, base64: what the route is meant to receive. */
function signedTransaction(): string {
  const payer = Keypair.generate();
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: bs58.encode(randomBytes(32)),
    instructions: [
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 1,
      }),
    ],
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  transaction.sign([payer]);
  return Buffer.from(transaction.serialize()).toString('base64');
}

describe('findKeyMaterial', () => {
  it('finds a key in any of its usual encodings, wherever it sits in the body', () => {
    fc.assert(
      fc.property(keyTexts, fc.constantFrom('signedTransaction', 'note'), (text, field) => {
        expect(findKeyMaterial({ planId: 'plan_1', [field]: text }, 'body')).toMatchObject({
          path: `body.${field}`,
        });
        expect(findKeyMaterial({ signatures: ['AAAA', text] }, 'body')?.path).toBe(
          'body.signatures[1]',
        );
      }),
    );
  });

  it('finds real wallet exports: a Solana keypair (base58 and JSON) and an EVM private key', () => {
    const keypair = Keypair.generate();
    const evm = generatePrivateKey();
    expect(privateKeyToAccount(evm).address).toMatch(/^0x/);
    for (const text of [
      bs58.encode(keypair.secretKey),
      JSON.stringify([...keypair.secretKey]),
      evm,
    ]) {
      expect(findKeyMaterial({ signedTransaction: text }, 'body')).toBeDefined();
    }
    expect(findKeyMaterial({ signedTransaction: [...keypair.secretKey] }, 'body')?.kind).toBe(
      'a 64-byte secret key (byte array)',
    );
  });

  it('finds seed phrases as one string or as a word list, and Sui / extended keys', () => {
    const words = PHRASE.split(' ');
    for (const value of [
      PHRASE,
      `  ${words.join('\n')}  `,
      [...words, ...words],
      `suiprivkey1qz${'q'.repeat(58)}`,
      `xprv${'9'.repeat(107)}`,
    ]) {
      expect(findKeyMaterial({ signedTransaction: value }, 'body')).toBeDefined();
    }
  });

  it.each(['privateKey', 'secret_key', 'Mnemonic', 'seed-phrase', 'keypair'])(
    'finds a field named %s whatever it holds',
    (name) => {
      expect(findKeyMaterial({ extra: { [name]: 'x' } }, 'body')).toEqual({
        path: `body.extra.${name}`,
        kind: 'a field named like a private key or seed phrase',
      });
    },
  );

  it('answers a value seen before as it did the first time (clean answers kept, keys never)', () => {
    const hex = `0x${randomBytes(32).toString('hex')}`;
    for (let pass = 0; pass < 3; pass += 1) {
      expect(keyMaterialKind(PHRASE, 'body.memo')).toBe('a seed phrase');
      expect(keyMaterialKind(hex, 'header.X-Note')).toBeDefined();
      // A Sui address is 32 bytes of hex: the same text is a key in one field, not in the other.
      expect(keyMaterialKind(hex, 'path.address')).toBeUndefined();
      expect(
        keyMaterialKind('0x8617E340B3D01FA5F11F306F4090FD50E238070D', 'path.address'),
      ).toBeUndefined();
    }
  });

  it('never flags signed transactions, signatures, plan ids or addresses', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 63 }), (legIndex) => {
        const body = {
          planId: `plan_${randomBytes(16).toString('hex')}`,
          legIndex,
          signedTransaction: signedTransaction(),
          signatures: [Buffer.from(randomBytes(97)).toString('base64')],
          owner: Keypair.generate().publicKey.toBase58(),
        };
        expect(findKeyMaterial(body, 'body')).toBeUndefined();
      }),
      { numRuns: 50 },
    );
    expect(
      findKeyMaterial({ note: 'deposit five usdc into kamino please' }, 'body'),
    ).toBeUndefined();
  });

  it('finds the shapes that got past the first detector (issue 16)', () => {
    const words = PHRASE.split(' ');
    const capitalised = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join(' ');
    const hex = randomBytes(32).toString('hex');
    for (const value of [
      capitalised,
      PHRASE.toUpperCase(),
      words.join(','),
      words.join(', '),
      words.join('-'),
      `key:${hex}`,
      `my key is 0x${hex}, keep it safe`,
      `${PHRASE} zoo`,
      `seed: ${words.slice(0, 6).join(' ')}\n${words.slice(6).join(' ')}`,
      `secret=${bs58.encode(Keypair.generate().secretKey)};`,
    ]) {
      expect(findKeyMaterial({ description: value }, 'body')).toBeDefined();
    }
  });

  it('base64url keys are keys; page cursors and slugs are not', () => {
    for (let round = 0; round < 200; round += 1) {
      const key = randomBytes(32).toString('base64url');
      // A key that is all base58 reads as a Solana address (32 bytes): accepted, as addresses are.
      if (!/^[1-9A-HJ-NP-Za-km-z]+$/.test(key)) {
        expect(findKeyMaterial({ note: key }, 'body')).toBeDefined();
      }
      // An activity cursor: base64url of a timestamp and a plan id (83 characters, any '-' or '_').
      const cursor = Buffer.from(
        `${new Date(Date.now() - round * 997_000).toISOString()}|plan_${randomBytes(16).toString('hex')}`,
      ).toString('base64url');
      expect(findKeyMaterial({ cursor }, 'query')).toBeUndefined();
    }
    expect(
      findKeyMaterial({ note: 'deposit-five-usdc-into-kamino-for-the-agent' }, 'body'),
    ).toBeUndefined();
  });

  it('a phrase with a typo or two is still a phrase; plain sentences are not', () => {
    const typos = PHRASE.replace('ability', 'abilty').replace('absurd', 'absrd');
    expect(findKeyMaterial({ description: typos }, 'body')?.kind).toBe('a seed phrase');
    const sentence =
      'Notify my trading agent when the vault apy on base drops below four percent, ' +
      'then move half of the position to the safest venue and tell the owner by email.';
    expect(findKeyMaterial({ description: sentence }, 'body')).toBeUndefined();
  });

  it('accepts a Sui address, an EVM transaction hash and a Solana signature only where they belong', () => {
    const hex32 = `0x${randomBytes(32).toString('hex')}`;
    const signature = bs58.encode(randomBytes(64));
    expect(findKeyMaterial({ owner: hex32, wallets: [hex32] }, 'body')).toBeUndefined();
    expect(findKeyMaterial({ address: hex32 }, 'path')).toBeUndefined();
    // A bridge to Sui names the owner's Sui address as its destination.
    expect(findKeyMaterial({ destinationAddress: hex32 }, 'body')).toBeUndefined();
    expect(findKeyMaterial({ txId: hex32 }, 'body')).toBeUndefined();
    expect(findKeyMaterial({ txId: signature }, 'body')).toBeUndefined();
    // Elsewhere, or bare, or with text around it, the same shapes are keys.
    expect(findKeyMaterial({ description: hex32 }, 'body')).toBeDefined();
    expect(findKeyMaterial({ owner: hex32.slice(2) }, 'body')).toBeDefined();
    expect(findKeyMaterial({ owner: signature }, 'body')).toBeDefined();
    expect(findKeyMaterial({ txId: `key:${hex32}` }, 'body')).toBeDefined();
  });

  it('refuses control characters, lone surrogates and deep nesting, naming the field', () => {
    expect(findRefusal({ owner: 'a\u0000b' }, 'body')).toEqual({
      path: 'body.owner',
      code: 'BAD_REQUEST',
      reason: 'contains a control character (U+0000)',
    });
    expect(findRefusal({ note: 'x\ud800y' }, 'body')?.path).toBe('body.note');
    expect(findRefusal({ ['a\u0001']: 1 }, 'body')?.code).toBe('BAD_REQUEST');
    expect(findRefusal({ note: 'line one\nline two\ttab' }, 'body')).toBeUndefined();
    let deep: unknown = 'leaf';
    for (let level = 0; level < 10_000; level += 1) deep = [deep];
    expect(findRefusal({ deep }, 'body')?.reason).toMatch(/deeper than/);
  });

  it('the access log keeps wallet segments and masks key-shaped ones', () => {
    const sui = `0x${randomBytes(32).toString('hex')}`;
    const key = randomBytes(32).toString('hex');
    expect(redactPath(`/api/v1/wallets/${sui}/harvest`)).toBe(`/api/v1/wallets/${sui}/harvest`);
    expect(redactPath(`/api/v1/wallets/${key}/harvest`)).toBe('/api/v1/wallets/[redacted]/harvest');
    expect(redactPath('/api/v1/wallets/%E0%A4%A/x')).toBe('/api/v1/wallets/[undecodable]/x');
    expect(redactPath('/api/v1/svc/status')).toBe('/api/v1/svc/status');
    // A Sui-shaped value is an address only as the wallet segment.
    expect(redactPath(`/api/v1/characters/${sui}/svc/position`)).toBe(
      '/api/v1/characters/[redacted]/svc/position',
    );
  });

  it('the finding never carries the value', () => {
    const secret = bs58.encode(Keypair.generate().secretKey);
    expect(JSON.stringify(findKeyMaterial({ signedTransaction: secret }, 'body'))).not.toContain(
      secret.slice(0, 12),
    );
  });
});
