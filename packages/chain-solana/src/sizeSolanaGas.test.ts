import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import type { TransactionInstruction } from '@solana/web3.js';
import { startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import { planMemoInstruction } from './instructions/planMemo';
import { bedAdapter } from './testing/bedAdapter';

const PLAN_ID = 'plan_00112233445566778899aabbccddeeff';
const RENT = 2_039_280n;

let bed: SolanaBed;
beforeAll(async () => {
  bed = await startSolanaBed();
});
afterAll(() => bed.stop());

const adapterAt = (rpcUrl: string | undefined) =>
  bedAdapter(bed, { rpcUrl, broadcastEnabled: false });

/** An unsigned leg as a plan stores it: base64 v0 wire bytes, fee payer `owner`. */
function leg(owner: PublicKey, instructions: TransactionInstruction[], blockhash?: string) {
  const message = new TransactionMessage({
    payerKey: owner,
    recentBlockhash: blockhash ?? bed.latestBlockhash(),
    instructions: [...instructions, planMemoInstruction(PLAN_ID)],
  }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
}

/** CreateIdempotent of `holder`'s USDC account, paid by `owner`. */
function createUsdcAccount(owner: PublicKey, holder: PublicKey) {
  const mint = new PublicKey(bed.usdcMint);
  const account = getAssociatedTokenAddressSync(mint, holder, true);
  return createAssociatedTokenAccountIdempotentInstruction(owner, account, holder, mint);
}

describe('sizeGas (Solana)', () => {
  it('sums each leg’s fee and the rent of the token accounts the legs create', async () => {
    const owner = bed.createFundedKeypair(1_000_000n).publicKey;
    const newHolder = Keypair.generate().publicKey;
    const transactions = [
      // A stale blockhash: the fee is asked with the latest one (it does not depend on it).
      leg(owner, [createUsdcAccount(owner, newHolder)], Keypair.generate().publicKey.toBase58()),
      leg(owner, [
        ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 }),
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 10_000 }),
        createUsdcAccount(owner, newHolder),
      ]),
    ];
    const sizing = await adapterAt(bed.rpcUrl).sizeGas?.({
      owner: owner.toBase58(),
      transactions,
    });
    const created = getAssociatedTokenAddressSync(new PublicKey(bed.usdcMint), newHolder, true);
    // 5000 per signature; the second leg adds 10 000 µlamports × 200 000 units = 2000 lamports.
    // The account both legs create is counted once.
    expect(sizing).toEqual({
      status: 'ok',
      nativeRequired: 5_000n + 7_000n + RENT,
      nativeHeld: 1_000_000n,
      solana: {
        legFees: [5_000n, 7_000n],
        rentPerAccount: RENT,
        accountsCreated: [created.toBase58()],
      },
    });
  });

  it('counts no rent for an account that already exists', async () => {
    const owner = bed.createFundedKeypair().publicKey;
    const holder = Keypair.generate().publicKey;
    bed.mintUsdc(holder, 1n);
    const sizing = await adapterAt(bed.rpcUrl).sizeGas?.({
      owner: owner.toBase58(),
      transactions: [leg(owner, [createUsdcAccount(owner, holder)])],
    });
    expect(sizing).toMatchObject({
      status: 'ok',
      nativeRequired: 5_000n,
      solana: { legFees: [5_000n], accountsCreated: [] },
    });
  });

  it('is unavailable when the RPC answers no fee, is down, or is not configured', async () => {
    const owner = bed.createFundedKeypair().publicKey;
    const transactions = [leg(owner, [])];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const call = JSON.parse(Buffer.concat(chunks).toString()) as { id: number; method: string };
        const context = { slot: 1 };
        const result =
          call.method === 'getLatestBlockhash'
            ? { context, value: { blockhash: bed.latestBlockhash(), lastValidBlockHeight: 150 } }
            : { context, value: null };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const nullFee = await adapterAt(`http://127.0.0.1:${port}`).sizeGas?.({
        owner: owner.toBase58(),
        transactions,
      });
      expect(nullFee).toMatchObject({ status: 'unavailable', reason: 'rpc_bad_response' });
      expect(nullFee?.status === 'unavailable' && nullFee.detail).toMatch(/no fee for leg 0/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const down = await adapterAt('http://127.0.0.1:1').sizeGas?.({
      owner: owner.toBase58(),
      transactions,
    });
    expect(down).toMatchObject({ status: 'unavailable', reason: 'rpc_error' });
    const unset = await adapterAt(undefined).sizeGas?.({ owner: owner.toBase58(), transactions });
    expect(unset).toMatchObject({ status: 'unavailable', reason: 'rpc_not_configured' });
  });

  it('refuses EVM calls and legs that are not Solana transactions', async () => {
    const owner = Keypair.generate().publicKey.toBase58();
    const adapter = adapterAt(bed.rpcUrl);
    await expect(adapter.sizeGas?.({ owner, calls: [] })).rejects.toMatchObject({
      field: 'calls',
    });
    await expect(adapter.sizeGas?.({ owner, transactions: ['AAAA'] })).rejects.toMatchObject({
      field: 'transaction',
    });
  });
});
