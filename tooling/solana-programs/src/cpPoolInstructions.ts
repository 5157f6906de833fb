import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { ata, discriminator } from './programInstructions';

// Instruction builders for the cp_pool program (programs/cp_pool/cp_pool.c), written from its
// account lists: the program test and the Jupiter fake's swap instruction use them.

/** One constant-product pool: its state PDA and the two vaults (the PDA's token accounts). */
export interface CpPoolAccounts {
  readonly program: PublicKey;
  readonly pool: PublicKey;
  readonly mintA: PublicKey;
  readonly mintB: PublicKey;
  readonly vaultA: PublicKey;
  readonly vaultB: PublicKey;
}

/** The pool of an ordered mint pair, and its vaults (associated token accounts of the pool). */
export function cpPoolAccounts(
  program: PublicKey,
  mintA: PublicKey,
  mintB: PublicKey,
): CpPoolAccounts {
  const [pool] = PublicKey.findProgramAddressSync(
    [Buffer.from('pool'), mintA.toBuffer(), mintB.toBuffer()],
    program,
  );
  return { program, pool, mintA, mintB, vaultA: ata(pool, mintA), vaultB: ata(pool, mintB) };
}

/** `initialize_pool(fee_bps)`: the vaults must exist (token accounts the pool owns). */
export function initializeCpPool(
  pool: CpPoolAccounts,
  admin: PublicKey,
  feeBps: number,
): TransactionInstruction {
  const data = Buffer.alloc(16);
  discriminator('initialize_pool').copy(data, 0);
  data.writeBigUInt64LE(BigInt(feeBps), 8);
  return new TransactionInstruction({
    programId: pool.program,
    keys: [
      { pubkey: admin, isSigner: true, isWritable: true },
      { pubkey: pool.pool, isSigner: false, isWritable: true },
      { pubkey: pool.mintA, isSigner: false, isWritable: false },
      { pubkey: pool.mintB, isSigner: false, isWritable: false },
      { pubkey: pool.vaultA, isSigner: false, isWritable: false },
      { pubkey: pool.vaultB, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
    ],
    data,
  });
}

export interface CpPoolSwap {
  readonly owner: PublicKey;
  readonly inputMint: PublicKey;
  readonly amountIn: bigint;
  /** The program fails the transaction when the fill is below it. */
  readonly minAmountOut: bigint;
}

/** `swap(amount_in, min_out)` from the owner's associated account of one mint to the other's. */
export function cpPoolSwap(pool: CpPoolAccounts, swap: CpPoolSwap): TransactionInstruction {
  const aToB = swap.inputMint.equals(pool.mintA);
  const [mintIn, mintOut] = aToB ? [pool.mintA, pool.mintB] : [pool.mintB, pool.mintA];
  const [vaultIn, vaultOut] = aToB ? [pool.vaultA, pool.vaultB] : [pool.vaultB, pool.vaultA];
  const data = Buffer.alloc(24);
  discriminator('swap').copy(data, 0);
  data.writeBigUInt64LE(swap.amountIn, 8);
  data.writeBigUInt64LE(swap.minAmountOut, 16);
  const w = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: true });
  const r = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: false });
  return new TransactionInstruction({
    programId: pool.program,
    keys: [
      { pubkey: swap.owner, isSigner: true, isWritable: true },
      r(pool.pool),
      w(ata(swap.owner, mintIn)),
      w(ata(swap.owner, mintOut)),
      w(vaultIn),
      w(vaultOut),
      r(mintIn),
      r(mintOut),
      r(TOKEN_PROGRAM_ID),
    ],
    data,
  });
}

/**
 * What `swap` pays for `amountIn` on reserves `reserveIn` / `reserveOut` (the program's own
 * arithmetic, floor at each step): the fee is taken from the input and stays in the pool.
 */
export function cpPoolQuote(
  reserveIn: bigint,
  reserveOut: bigint,
  amountIn: bigint,
  feeBps: number,
): { readonly amountOut: bigint; readonly feeAmount: bigint } {
  const inAfterFee = (amountIn * BigInt(10_000 - feeBps)) / 10_000n;
  const amountOut = (reserveOut * inAfterFee) / (reserveIn + inAfterFee);
  return { amountOut, feeAmount: amountIn - inAfterFee };
}
