import {
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { deployCpPool } from '../solana/deployCpPool';
import type { SolanaCpPool } from '../solana/deployCpPool';
import { startSolanaBed } from '../solana/startSolanaBed';
import type { SolanaBed } from '../solana/startSolanaBed';
import { startJupiterFake } from './startJupiterFake';
import type { JupiterFake } from './startJupiterFake';

interface InstructionJson {
  programId: string;
  accounts: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
  data: string;
}

const toInstruction = (json: InstructionJson) =>
  new TransactionInstruction({
    programId: new PublicKey(json.programId),
    keys: json.accounts.map((meta) => ({ ...meta, pubkey: new PublicKey(meta.pubkey) })),
    data: Buffer.from(json.data, 'base64'),
  });

describe('Jupiter-shaped quote fake over a cp_pool on the Solana bed', () => {
  let bed: SolanaBed;
  let pool: SolanaCpPool;
  let fake: JupiterFake;
  let owner: Keypair;

  beforeAll(async () => {
    bed = await startSolanaBed();
    pool = deployCpPool(bed, { reserveA: 1_000_000_000n, reserveB: 5_000_000_000n });
    fake = await startJupiterFake({ bed, pools: [pool], slowMs: 1_500 });
    owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 100_000_000n);
  }, 60_000);
  afterAll(async () => {
    await fake.close();
    await bed.stop();
  });

  const ask = async (amount: bigint) => {
    const url = new URL(`${fake.url}/quote`);
    url.search = new URLSearchParams({
      inputMint: pool.mintA,
      outputMint: pool.mintB,
      amount: amount.toString(),
      slippageBps: '100',
      swapMode: 'ExactIn',
    }).toString();
    const response = await fetch(url);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const instructionsFor = async (quoteResponse: unknown) => {
    const response = await fetch(`${fake.url}/swap-instructions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userPublicKey: owner.publicKey.toBase58(), quoteResponse }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const run = (body: Record<string, unknown>) => {
    const instructions = [
      ...(body['computeBudgetInstructions'] as InstructionJson[]),
      ...(body['setupInstructions'] as InstructionJson[]),
      body['swapInstruction'] as InstructionJson,
    ].map(toInstruction);
    const message = new TransactionMessage({
      payerKey: owner.publicKey,
      recentBlockhash: bed.latestBlockhash(),
      instructions,
    }).compileToV0Message();
    const transaction = new VersionedTransaction(message);
    transaction.sign([owner]);
    return bed.send(transaction);
  };

  it("quotes from the pool's vaults in Jupiter's shape; its swap instruction fills the quote", async () => {
    const { status, body } = await ask(10_000_000n);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      inputMint: pool.mintA,
      outputMint: pool.mintB,
      inAmount: '10000000',
      swapMode: 'ExactIn',
      slippageBps: 100,
      platformFee: null,
      routePlan: [
        {
          swapInfo: { ammKey: pool.pool, feeAmount: '30000', feeMint: pool.mintA },
          percent: 100,
        },
      ],
    });
    const outAmount = BigInt(body['outAmount'] as string);
    expect(BigInt(body['otherAmountThreshold'] as string)).toBe((outAmount * 9_900n) / 10_000n);
    expect(body['priceImpactPct']).toMatch(/^0\.\d{6}$/);

    const swap = await instructionsFor(body);
    expect(swap.status).toBe(200);
    expect(swap.body['addressLookupTableAddresses']).toEqual([]);
    const outcome = run(swap.body);
    expect(outcome.landed && outcome.entry.err).toBeNull();
    expect(bed.tokenBalance(pool.mintB, owner.publicKey)).toBe(outAmount);
    expect(bed.usdcBalance(owner.publicKey)).toBe(90_000_000n);
  });

  it('stale: quotes 5% above the pool and lets a worse fill through on chain', async () => {
    fake.setMode('stale');
    try {
      const before = bed.tokenBalance(pool.mintB, owner.publicKey);
      const { body } = await ask(1_000_000n);
      const outcome = run((await instructionsFor(body)).body);
      expect(outcome.landed && outcome.entry.err).toBeNull();
      const filled = bed.tokenBalance(pool.mintB, owner.publicKey) - before;
      expect(filled).toBeLessThan(BigInt(body['otherAmountThreshold'] as string));
    } finally {
      fake.setMode('ok');
    }
  });

  it('fault modes: 500, malformed, no route, slow; an unknown pair has no route', async () => {
    fake.setMode('http_500');
    expect((await ask(1_000n)).status).toBe(500);
    fake.setMode('malformed');
    expect((await ask(1_000n)).body['inAmount']).toBe(1.5e17);
    fake.setMode('no_route');
    expect(await ask(1_000n)).toMatchObject({
      status: 400,
      body: { errorCode: 'COULD_NOT_FIND_ANY_ROUTE' },
    });
    fake.setMode('slow');
    const started = Date.now();
    await expect(
      fetch(`${fake.url}/quote?inputMint=${pool.mintA}&outputMint=${pool.mintB}&amount=1`, {
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    fake.setMode('ok');
    const other = bed.createMint(6).toBase58();
    const response = await fetch(
      `${fake.url}/quote?inputMint=${pool.mintA}&outputMint=${other}&amount=1000`,
    );
    expect(response.status).toBe(400);
  });
});
