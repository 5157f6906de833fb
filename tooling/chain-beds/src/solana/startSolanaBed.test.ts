import {
  AccountLayout,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  PublicKey,
  SendTransactionError,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import type { TransactionInstruction } from '@solana/web3.js';
import { SOLANA_MAINNET_USDC_MINT, startSolanaBed } from './startSolanaBed';
import type { SolanaBed } from './startSolanaBed';

let bed: SolanaBed;
let connection: Connection;

beforeAll(async () => {
  bed = await startSolanaBed();
  connection = new Connection(bed.rpcUrl, {
    commitment: 'confirmed',
    disableRetryOnRateLimit: true,
  });
});
afterAll(() => bed.stop());

async function rpc(body: unknown): Promise<unknown> {
  const response = await fetch(bed.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json();
}

async function signed(payer: Keypair, instructions: TransactionInstruction[]) {
  const { blockhash } = await connection.getLatestBlockhash();
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions,
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  transaction.sign([payer]);
  return transaction;
}

function usdcTransfer(from: Keypair, to: PublicKey, amount: bigint): TransactionInstruction[] {
  const mint = new PublicKey(bed.usdcMint);
  const source = getAssociatedTokenAddressSync(mint, from.publicKey);
  const destination = getAssociatedTokenAddressSync(mint, to);
  return [
    createAssociatedTokenAccountIdempotentInstruction(from.publicKey, destination, to, mint),
    createTransferCheckedInstruction(source, mint, destination, from.publicKey, amount, 6),
  ];
}

describe('JSON-RPC envelope', () => {
  it('echoes string and number ids', async () => {
    expect(await rpc({ jsonrpc: '2.0', id: 'abc', method: 'getSlot' })).toMatchObject({
      jsonrpc: '2.0',
      id: 'abc',
      result: expect.any(Number),
    });
    expect(await rpc({ jsonrpc: '2.0', id: 7, method: 'getHealth', params: [] })).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: 'ok',
    });
  });

  it('answers a batch with one response per request, in order', async () => {
    const answers = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'getBlockHeight' },
      { jsonrpc: '2.0', id: 2, method: 'noSuchMethod' },
    ]);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 1, result: expect.any(Number) },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
    ]);
  });

  it('reports unparseable bodies and malformed requests', async () => {
    const response = await fetch(bed.rpcUrl, { method: 'POST', body: '{nope' });
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await rpc({ id: 3, method: 'getSlot' })).toMatchObject({
      id: 3,
      error: { code: -32600 },
    });
    expect(
      await rpc({ jsonrpc: '2.0', id: 4, method: 'getBalance', params: ['xyz'] }),
    ).toMatchObject({ id: 4, error: { code: -32602 } });
  });
});

describe('reads through web3.js Connection', () => {
  it('puts a 6-decimal USDC mint at the mainnet address', async () => {
    expect(bed.usdcMint).toBe(SOLANA_MAINNET_USDC_MINT);
    const info = await connection.getParsedAccountInfo(new PublicKey(bed.usdcMint));
    expect(info.value?.owner.toBase58()).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(info.value?.data).toMatchObject({
      program: 'spl-token',
      parsed: {
        type: 'mint',
        info: { decimals: 6, mintAuthority: bed.mintAuthority.publicKey.toBase58() },
      },
    });
  });

  it('serves SOL and USDC balances in base64 and jsonParsed', async () => {
    const owner = bed.createFundedKeypair(3_000_000_000n);
    const tokenAccount = bed.mintUsdc(owner.publicKey, 12_345_678n);
    bed.mintUsdc(owner.publicKey, 1n);

    expect(await connection.getBalance(owner.publicKey)).toBe(3_000_000_000);
    const mint = new PublicKey(bed.usdcMint);
    const raw = await connection.getTokenAccountsByOwner(owner.publicKey, { mint });
    expect(raw.value.map((entry) => entry.pubkey.toBase58())).toEqual([tokenAccount.toBase58()]);
    expect(raw.value[0]?.account.data.readBigUInt64LE(64)).toBe(12_345_679n);

    const parsed = await connection.getParsedTokenAccountsByOwner(owner.publicKey, {
      programId: TOKEN_PROGRAM_ID,
    });
    expect(parsed.value[0]?.account.data.parsed).toMatchObject({
      type: 'account',
      info: { mint: bed.usdcMint, tokenAmount: { amount: '12345679', decimals: 6 } },
    });
    expect((await connection.getTokenAccountBalance(tokenAccount)).value).toMatchObject({
      amount: '12345679',
      uiAmountString: '12.345679',
    });
    expect(bed.usdcBalance(owner.publicKey)).toBe(12_345_679n);
  });

  it('creates other mints and reads any token balance', async () => {
    const owner = Keypair.generate();
    const receiptMint = bed.createMint(6);
    bed.mintTokens(receiptMint, owner.publicKey, 42n);
    expect(bed.tokenBalance(receiptMint, owner.publicKey)).toBe(42n);
    expect(bed.usdcBalance(owner.publicKey)).toBe(0n);
    const supply = await connection.getTokenSupply(receiptMint);
    expect(supply.value.amount).toBe('42');
  });

  it('serves cluster reads', async () => {
    const latest = await connection.getLatestBlockhash();
    expect(latest.blockhash).toBe(bed.latestBlockhash());
    expect(latest.lastValidBlockHeight).toBe((await connection.getBlockHeight()) + 150);
    expect(await connection.getMinimumBalanceForRentExemption(165)).toBe(2_039_280);
    expect((await connection.getVersion())['solana-core']).toEqual(expect.any(String));
  });
});

describe('transactions through web3.js Connection', () => {
  it('lands a transfer and serves it with balances, token balances, fee and logs', async () => {
    const alice = bed.createFundedKeypair();
    const bob = Keypair.generate();
    bed.mintUsdc(alice.publicKey, 5_000_000n);
    const transaction = await signed(alice, usdcTransfer(alice, bob.publicKey, 1_250_000n));
    const slotBefore = await connection.getSlot();

    const signature = await connection.sendRawTransaction(transaction.serialize());
    const statuses = await connection.getSignatureStatuses([signature, '1'.repeat(64)]);
    expect(statuses.value[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect(statuses.value[1]).toBeNull();

    const landed = await connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.slot).toBe(slotBefore);
    expect(landed?.version).toBe(0);
    expect(landed?.meta?.err).toBeNull();
    expect(landed?.meta?.fee).toBe(5000);
    expect(landed?.transaction.message.staticAccountKeys[0]?.toBase58()).toBe(
      alice.publicKey.toBase58(),
    );
    const post = landed?.meta?.postTokenBalances ?? [];
    expect(
      post.find((entry) => entry.owner === bob.publicKey.toBase58())?.uiTokenAmount.amount,
    ).toBe('1250000');
    expect(
      landed?.meta?.preTokenBalances?.find((entry) => entry.owner === bob.publicKey.toBase58()),
    ).toBeUndefined();
    expect(landed?.meta?.logMessages?.length).toBeGreaterThan(0);
    expect(await connection.getSlot()).toBe(slotBefore + 1);
  });

  it('refuses a failing transaction at preflight and records it with skipPreflight', async () => {
    const alice = bed.createFundedKeypair();
    bed.mintUsdc(alice.publicKey, 1_000_000n);
    const transaction = await signed(
      alice,
      usdcTransfer(alice, Keypair.generate().publicKey, 2_000_000n),
    );

    await expect(connection.sendRawTransaction(transaction.serialize())).rejects.toThrow(
      SendTransactionError,
    );
    const signature = await connection.sendRawTransaction(transaction.serialize(), {
      skipPreflight: true,
    });
    const landed = await connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.meta?.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
    expect(landed?.meta?.fee).toBe(5000);
    expect((await connection.getSignatureStatus(signature)).value?.err).toEqual({
      InstructionError: [1, { Custom: 1 }],
    });
  });

  it('refuses a bad signature and asks for maxSupportedTransactionVersion on v0', async () => {
    const alice = bed.createFundedKeypair();
    const forged = await signed(alice, usdcTransfer(alice, Keypair.generate().publicKey, 0n));
    forged.signatures[0] = new Uint8Array(64).fill(7);
    await expect(connection.sendRawTransaction(forged.serialize())).rejects.toThrow(
      /signature verification/,
    );

    bed.mintUsdc(alice.publicKey, 10n);
    const good = await signed(alice, usdcTransfer(alice, Keypair.generate().publicKey, 10n));
    const signature = await connection.sendRawTransaction(good.serialize());
    await expect(connection.getTransaction(signature)).rejects.toThrow(
      /maxSupportedTransactionVersion/,
    );
    expect(
      await connection.getTransaction('1'.repeat(88), { maxSupportedTransactionVersion: 0 }),
    ).toBeNull();
  });
});

describe('getSignaturesForAddress', () => {
  it('lists the landed transactions naming an account, newest first, with limit and before', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 3_000_000n);
    const to = Keypair.generate().publicKey;
    const first = await connection.sendTransaction(
      await signed(owner, usdcTransfer(owner, to, 1n)),
    );
    bed.svm.expireBlockhash();
    const second = await connection.sendTransaction(
      await signed(owner, usdcTransfer(owner, to, 2n)),
    );
    const listed = await connection.getSignaturesForAddress(to);
    expect(listed.map((entry) => [entry.signature, entry.err])).toEqual([
      [second, null],
      [first, null],
    ]);
    expect(
      (await connection.getSignaturesForAddress(to, { limit: 1 })).map((e) => e.signature),
    ).toEqual([second]);
    expect(
      (await connection.getSignaturesForAddress(to, { before: second })).map((e) => e.signature),
    ).toEqual([first]);
    expect(await connection.getSignaturesForAddress(Keypair.generate().publicKey)).toEqual([]);
  });
});

describe('getFeeForMessage', () => {
  it('answers what landing the message charges, priority fee included; null for an unknown blockhash', async () => {
    const alice = bed.createFundedKeypair();
    const bob = Keypair.generate();
    bed.mintUsdc(alice.publicKey, 5_000_000n);
    const budget = [
      ComputeBudgetProgram.setComputeUnitLimit({ units: 300_000 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 7_001 }),
    ];
    const transaction = await signed(alice, [
      ...budget,
      ...usdcTransfer(alice, bob.publicKey, 1_000n),
    ]);
    const fee = await connection.getFeeForMessage(transaction.message);
    // 5000 per signature + ceil(7001 µlamports × 300 000 units / 10^6) = 5000 + 2101.
    expect(fee.value).toBe(7_101);
    const signature = await connection.sendRawTransaction(transaction.serialize());
    const landed = await connection.getTransaction(signature, {
      maxSupportedTransactionVersion: 0,
    });
    expect(landed?.meta?.fee).toBe(fee.value);

    transaction.message.recentBlockhash = Keypair.generate().publicKey.toBase58();
    expect((await connection.getFeeForMessage(transaction.message)).value).toBeNull();
  });
});

// simulateTransaction as web3.js (the published client) asks for it and reads it back: the
// unsigned leg run with the latest blockhash, the accounts after the run, nothing committed.
describe('simulateTransaction', () => {
  /** An unsigned USDC transfer from `from` to `to`, on a blockhash that is not the bed's. */
  function unsignedTransfer(from: Keypair, to: PublicKey, amount: bigint) {
    const mint = new PublicKey(bed.usdcMint);
    const message = new TransactionMessage({
      payerKey: from.publicKey,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
      instructions: usdcTransfer(from, to, amount),
    }).compileToV0Message();
    return {
      transaction: new VersionedTransaction(message),
      source: getAssociatedTokenAddressSync(mint, from.publicKey),
      destination: getAssociatedTokenAddressSync(mint, to),
    };
  }

  const amountOf = (data: string[] | undefined) =>
    data ? AccountLayout.decode(Buffer.from(data[0] ?? '', 'base64')).amount : undefined;

  it('runs an unsigned transaction on the latest blockhash and returns the accounts after it', async () => {
    const owner = bed.createFundedKeypair();
    const payee = Keypair.generate().publicKey;
    bed.mintUsdc(owner.publicKey, 5_000_000n);
    const { transaction, source, destination } = unsignedTransfer(owner, payee, 1_250_000n);

    const { context, value } = await connection.simulateTransaction(transaction, {
      sigVerify: false,
      replaceRecentBlockhash: true,
      accounts: { encoding: 'base64', addresses: [source.toBase58(), destination.toBase58()] },
    });
    expect(value.err).toBeNull();
    expect(value.unitsConsumed).toBeGreaterThan(0);
    expect(value.logs?.join('\n')).toContain(`Program ${TOKEN_PROGRAM_ID.toBase58()} success`);
    // In the RPC's answer; web3.js 1.x passes it through without typing it.
    const { replacementBlockhash } = value as { replacementBlockhash?: { blockhash: string } };
    expect(replacementBlockhash?.blockhash).toBe(bed.latestBlockhash());
    expect(context.slot).toBeGreaterThan(0);
    const [after, created] = value.accounts ?? [];
    expect(amountOf(after?.data)).toBe(3_750_000n);
    expect(amountOf(created?.data)).toBe(1_250_000n);
    // Nothing committed: the payee's account still does not exist, the owner holds it all.
    expect(bed.usdcBalance(owner.publicKey)).toBe(5_000_000n);
    expect(await connection.getAccountInfo(destination)).toBeNull();
  });

  it('answers a failing run as a value with its error and logs, and accounts as they are', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    const { transaction, source } = unsignedTransfer(
      owner,
      Keypair.generate().publicKey,
      2_000_000n,
    );
    const { value } = await connection.simulateTransaction(transaction, {
      sigVerify: false,
      replaceRecentBlockhash: true,
      accounts: { encoding: 'base64', addresses: [source.toBase58()] },
    });
    expect(value.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
    expect(value.logs?.join('\n')).toContain('insufficient funds');
    expect(amountOf(value.accounts?.[0]?.data)).toBe(1_000_000n);
  });

  it('refuses what a node refuses: a stale blockhash kept, sigVerify with a replaced blockhash', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    const { transaction } = unsignedTransfer(owner, Keypair.generate().publicKey, 1n);
    const stale = await connection.simulateTransaction(transaction, { sigVerify: false });
    expect(stale.value.err).toBe('BlockhashNotFound');
    await expect(
      connection.simulateTransaction(transaction, {
        sigVerify: true,
        replaceRecentBlockhash: true,
      }),
    ).rejects.toThrow('sigVerify may not be used with replaceRecentBlockhash');
    // Unsigned, with signatures verified: the run fails as a node's does.
    transaction.message.recentBlockhash = bed.latestBlockhash();
    const unsigned = await connection.simulateTransaction(transaction, { sigVerify: true });
    expect(unsigned.value.err).toBe('SignatureFailure');
  });
});
