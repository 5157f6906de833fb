import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToInstruction,
} from '@solana/spl-token';
import { Keypair } from '@solana/web3.js';
import type { PublicKey } from '@solana/web3.js';
import { createMintInstructions } from './createMintInstructions';
import { cpPoolAccounts, cpPoolQuote, cpPoolSwap, initializeCpPool } from './cpPoolInstructions';
import type { CpPoolAccounts } from './cpPoolInstructions';
import { ensureProgramsBuilt } from './ensureProgramsBuilt';
import { loadProgram } from './loadProgram';
import { ata } from './programInstructions';
import { ProgramHarness, programLogs } from './testing/programHarness';

// The pool the local Jupiter fake routes through: real token moves, the fee left in the pool,
// the caller's minimum enforced by the program itself.
describe('cp_pool program (constant product, fee on the input, minimum enforced)', () => {
  let harness: ProgramHarness;
  let admin: Keypair;
  let usdc: PublicKey;
  let wsol: PublicKey;
  let pool: CpPoolAccounts;

  const must = (run: { ok: boolean; error: string | undefined }) => {
    if (!run.ok) throw new Error(run.error);
  };
  const createMint = (decimals: number) => {
    const mint = Keypair.generate();
    must(
      harness.send(
        createMintInstructions({
          svm: harness.svm,
          payer: admin.publicKey,
          mint: mint.publicKey,
          decimals,
          mintAuthority: admin.publicKey,
        }),
        [admin, mint],
      ),
    );
    return mint.publicKey;
  };
  const mintTo = (owner: PublicKey, mint: PublicKey, amount: bigint) =>
    must(
      harness.send(
        [
          createAssociatedTokenAccountIdempotentInstruction(
            admin.publicKey,
            ata(owner, mint),
            owner,
            mint,
          ),
          createMintToInstruction(mint, ata(owner, mint), admin.publicKey, amount),
        ],
        [admin],
      ),
    );
  const balance = (owner: PublicKey, mint: PublicKey) => {
    const data = harness.data(ata(owner, mint));
    return data ? Buffer.from(data).readBigUInt64LE(64) : 0n;
  };

  beforeEach(() => {
    harness = new ProgramHarness();
    admin = harness.keypair();
    const program = Keypair.generate().publicKey;
    loadProgram(harness.svm, program, ensureProgramsBuilt().cp_pool, admin.publicKey);
    usdc = createMint(6);
    wsol = createMint(9);
    pool = cpPoolAccounts(program, usdc, wsol);
    mintTo(pool.pool, usdc, 1_000_000_000n); // 1,000 USDC
    mintTo(pool.pool, wsol, 5_000_000_000n); // 5 SOL
    must(harness.send([initializeCpPool(pool, admin.publicKey, 30)], [admin]));
  });

  it('pays the constant-product output net of the pool fee, both ways', () => {
    const alice = harness.keypair();
    mintTo(alice.publicKey, usdc, 10_000_000n);
    mintTo(alice.publicKey, wsol, 0n);
    const expected = cpPoolQuote(1_000_000_000n, 5_000_000_000n, 10_000_000n, 30);
    const run = harness.send(
      [
        cpPoolSwap(pool, {
          owner: alice.publicKey,
          inputMint: usdc,
          amountIn: 10_000_000n,
          minAmountOut: expected.amountOut,
        }),
      ],
      [alice],
    );
    expect(run.error).toBeUndefined();
    expect(programLogs(run)).toContain(
      `cp_pool: swap in=10000000 out=${expected.amountOut} fee=${expected.feeAmount}`,
    );
    expect(expected.feeAmount).toBe(30_000n);
    expect(balance(alice.publicKey, wsol)).toBe(expected.amountOut);
    expect(balance(alice.publicKey, usdc)).toBe(0n);
    expect(balance(pool.pool, usdc)).toBe(1_010_000_000n);

    const back = harness.send(
      [
        cpPoolSwap(pool, {
          owner: alice.publicKey,
          inputMint: wsol,
          amountIn: expected.amountOut,
          minAmountOut: 1n,
        }),
      ],
      [alice],
    );
    expect(back.error).toBeUndefined();
    // Two pool fees later, she holds less USDC than she started with.
    expect(balance(alice.publicKey, usdc)).toBeGreaterThan(9_900_000n);
    expect(balance(alice.publicKey, usdc)).toBeLessThan(10_000_000n);
  });

  it('a fill below the minimum fails the transaction and moves nothing', () => {
    const bob = harness.keypair();
    mintTo(bob.publicKey, usdc, 10_000_000n);
    mintTo(bob.publicKey, wsol, 0n);
    const expected = cpPoolQuote(1_000_000_000n, 5_000_000_000n, 10_000_000n, 30);
    const run = harness.send(
      [
        cpPoolSwap(pool, {
          owner: bob.publicKey,
          inputMint: usdc,
          amountIn: 10_000_000n,
          minAmountOut: expected.amountOut + 1n,
        }),
      ],
      [bob],
    );
    expect(run.error).toContain('Custom(7)');
    expect(balance(bob.publicKey, usdc)).toBe(10_000_000n);
    expect(balance(bob.publicKey, wsol)).toBe(0n);
  });

  it('refuses a zero amount, a vault of another pool, and a second initialisation', () => {
    const carol = harness.keypair();
    mintTo(carol.publicKey, usdc, 1_000_000n);
    mintTo(carol.publicKey, wsol, 0n);
    const swap = (amountIn: bigint, target = pool) =>
      harness.send(
        [
          cpPoolSwap(target, {
            owner: carol.publicKey,
            inputMint: usdc,
            amountIn,
            minAmountOut: 0n,
          }),
        ],
        [carol],
      );
    expect(swap(0n).error).toContain('Custom(5)');
    expect(swap(1_000n, { ...pool, vaultB: ata(carol.publicKey, wsol) }).error).toContain(
      'Custom(4)',
    );
    expect(harness.send([initializeCpPool(pool, admin.publicKey, 30)], [admin]).error).toContain(
      'Custom(8)',
    );
  });
});
