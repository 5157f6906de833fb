import { Keypair } from '@solana/web3.js';
import { deployCpPool } from '@yieldrouter/chain-beds/solana';
import type { SolanaCpPool } from '@yieldrouter/chain-beds/solana';
import { startJupiterFake } from '@yieldrouter/chain-beds/quotes';
import type { JupiterFake } from '@yieldrouter/chain-beds/quotes';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter, SolanaInstructionJson, SwapReceiptQuery } from '@yieldrouter/schemas';
import { bedAdapter, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

// A swap leg built from the Jupiter fake's instructions runs on the bed's cp_pool; its receipt
// is read from the token balance deltas, never from the quote.
let bed: RouterBed;
let pool: SolanaCpPool;
let jupiter: JupiterFake;
let adapter: ChainAdapter;
const feeRecipient = Keypair.generate().publicKey.toBase58();

beforeAll(async () => {
  bed = await startRouterBed();
  pool = deployCpPool(bed, { reserveA: 1_000_000_000_000n, reserveB: 5_000_000_000_000n });
  jupiter = await startJupiterFake({ bed, pools: [pool] });
  adapter = bedAdapter(bed, { broadcastEnabled: true });
}, 60_000);
afterAll(async () => {
  await jupiter.close();
  await bed.stop();
});

interface SwapInstructionsJson {
  computeBudgetInstructions: SolanaInstructionJson[];
  setupInstructions: SolanaInstructionJson[];
  swapInstruction: SolanaInstructionJson;
  addressLookupTableAddresses: string[];
}

/** Quote and instructions from the fake (what the engine's Jupiter source reads and checks). */
async function jupiterSwap(owner: string, amount: bigint) {
  const quote = (await (
    await fetch(
      `${jupiter.url}/quote?inputMint=${pool.mintA}&outputMint=${pool.mintB}&amount=${amount}&slippageBps=100`,
    )
  ).json()) as { outAmount: string; otherAmountThreshold: string };
  const built = (await (
    await fetch(`${jupiter.url}/swap-instructions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userPublicKey: owner, quoteResponse: quote }),
    })
  ).json()) as SwapInstructionsJson;
  return {
    quote,
    instructions: {
      computeBudget: built.computeBudgetInstructions,
      setup: built.setupInstructions,
      swap: built.swapInstruction,
      cleanup: [],
      addressLookupTables: built.addressLookupTableAddresses,
    },
  };
}

async function swap(owner: Keypair, amountIn: bigint, fee: bigint) {
  const planId = newPlanId();
  const { quote, instructions } = await jupiterSwap(owner.publicKey.toBase58(), amountIn - fee);
  const leg = onlyLeg(
    await adapter.buildSolanaSwap!({
      planId,
      owner: owner.publicKey.toBase58(),
      amountInMicros: amountIn,
      instructions,
      serviceFee: { recipient: feeRecipient, mint: pool.mintA, decimals: 6, amountMicros: fee },
      summary: 'Swap on the bed',
    }),
  );
  const submitted = await adapter.broadcast({ transaction: signLeg(leg, owner) });
  if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
  const query: SwapReceiptQuery = {
    txId: submitted.txId,
    planId,
    owner: owner.publicKey.toBase58(),
    to: pool.program,
    inputToken: pool.mintA,
    outputToken: pool.mintB,
    minAmountOutMicros: BigInt(quote.otherAmountThreshold),
    feeRecipient,
  };
  return { leg, quote, query };
}

describe('a Solana swap leg (Jupiter instructions), end to end on the bed', () => {
  it('pays the service fee and swaps in one transaction; the receipt reads the balance deltas', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    const { leg, quote, query } = await swap(owner, 10_000_000n, 10_000n);
    expect(leg).toMatchObject({ action: 'swap', settles: true, amountMicros: 10_000_000n });
    const receipt = await adapter.readSwapReceipt!(query);
    const received = bed.tokenBalance(pool.mintB, owner.publicKey);
    expect(receipt).toEqual({
      status: 'confirmed',
      txId: query.txId,
      amountInMicros: 10_000_000n,
      amountOutMicros: received,
      feePaidMicros: 10_000n,
      block: String(bed.transaction(query.txId)?.slot),
    });
    expect(received).toBe(BigInt(quote.outAmount));
    expect(bed.usdcBalance(feeRecipient)).toBe(10_000n);

    // The same transaction is not another plan's, and not a swap on another program.
    expect(await adapter.readSwapReceipt!({ ...query, planId: newPlanId() })).toMatchObject({
      status: 'mismatch',
    });
    expect(await adapter.readSwapReceipt!({ ...query, to: feeRecipient })).toMatchObject({
      status: 'mismatch',
      reason: expect.stringContaining('swap program'),
    });
  });

  it('a stale quote fills below its minimum: the receipt fails the leg', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    jupiter.setMode('stale');
    try {
      const { query } = await swap(owner, 10_000_000n, 10_000n);
      expect(await adapter.readSwapReceipt!(query)).toMatchObject({
        status: 'failed',
        reason: expect.stringContaining('below the minimum'),
      });
    } finally {
      jupiter.setMode('ok');
    }
  });

  it('a swap the pool refuses (minimum above any fill) is a failed leg and moves nothing', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10_000_000n);
    const planId = newPlanId();
    const { instructions } = await jupiterSwap(owner.publicKey.toBase58(), 9_990_000n);
    // The swap's min_out (bytes 16..24) raised past what the pool can pay.
    const data = Buffer.from(instructions.swap.data, 'base64');
    data.writeBigUInt64LE(data.readBigUInt64LE(16) * 2n, 16);
    const leg = onlyLeg(
      await adapter.buildSolanaSwap!({
        planId,
        owner: owner.publicKey.toBase58(),
        amountInMicros: 10_000_000n,
        instructions: {
          ...instructions,
          swap: { ...instructions.swap, data: data.toString('base64') },
        },
        serviceFee: {
          recipient: feeRecipient,
          mint: pool.mintA,
          decimals: 6,
          amountMicros: 10_000n,
        },
        summary: 'Swap on the bed',
      }),
    );
    const transaction = Buffer.from(signLeg(leg, owner), 'base64');
    const { VersionedTransaction } = await import('@solana/web3.js');
    const outcome = bed.send(VersionedTransaction.deserialize(transaction), { preflight: false });
    expect(outcome.landed).toBe(true);
    const txId = outcome.landed ? outcome.entry.signature : '';
    expect(
      await adapter.readSwapReceipt!({
        txId,
        planId,
        owner: owner.publicKey.toBase58(),
        to: pool.program,
        inputToken: pool.mintA,
        outputToken: pool.mintB,
        minAmountOutMicros: 1n,
        feeRecipient,
      }),
    ).toMatchObject({ status: 'failed' });
    expect(bed.usdcBalance(owner.publicKey)).toBe(10_000_000n);
  });
});
