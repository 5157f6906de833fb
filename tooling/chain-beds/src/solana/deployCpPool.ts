import {
  NATIVE_MINT,
  createAssociatedTokenAccountIdempotentInstruction,
  createSyncNativeInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey, SystemProgram } from '@solana/web3.js';
import {
  cpPoolAccounts,
  ensureProgramsBuilt,
  initializeCpPool,
  loadProgram,
} from '@yieldrouter/solana-programs';
import { Keypair } from '@solana/web3.js';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';

/** A constant-product pool on a Solana bed (base58 ids), what the Jupiter fake routes through. */
export interface SolanaCpPool {
  /** The cp_pool program id. */
  readonly program: string;
  /** The pool's state PDA (Jupiter's `ammKey`). */
  readonly pool: string;
  readonly mintA: string;
  readonly mintB: string;
  readonly vaultA: string;
  readonly vaultB: string;
  /** The pool fee on the input, in bps. */
  readonly feeBps: number;
}

export interface DeployCpPoolParameters {
  /** Default: the bed's USDC. */
  readonly mintA?: string;
  /**
   * Default: a new 9-decimal mint of the bed's authority. The wrapped SOL mint
   * (`So11111111111111111111111111111111111111112`) makes a USDC/SOL pool: its vault is funded
   * with lamports and synced, as wrapping SOL does.
   */
  readonly mintB?: string;
  readonly reserveA: bigint;
  readonly reserveB: bigint;
  /** Default 30 (0.3%). */
  readonly feeBps?: number;
  /** Default: a new program id for the cp_pool program; reuse one to add a second pair. */
  readonly program?: string;
}

/**
 * Loads the cp_pool program (built first when missing or stale: needs clang), funds the pool's
 * two vaults with the bed authority's mints, and initialises the pool. The bed authority holds
 * both mints' authority, so the reserves are real token balances the swap moves.
 *
 * @example
 * const pool = deployCpPool(bed, { reserveA: 1_000_000_000_000n, reserveB: 5_000_000_000_000n });
 * const jupiter = await startJupiterFake({ bed, pools: [pool] });
 */
export function deployCpPool(bed: SolanaBed, parameters: DeployCpPoolParameters): SolanaCpPool {
  const feeBps = parameters.feeBps ?? 30;
  let program: PublicKey;
  if (parameters.program) {
    program = new PublicKey(parameters.program);
  } else {
    program = Keypair.generate().publicKey;
    loadProgram(bed.svm, program, ensureProgramsBuilt().cp_pool, bed.mintAuthority.publicKey);
  }
  const mintA = new PublicKey(parameters.mintA ?? bed.usdcMint);
  const mintB = parameters.mintB ? new PublicKey(parameters.mintB) : bed.createMint(9);
  const accounts = cpPoolAccounts(program, mintA, mintB);
  bed.mintTokens(mintA, accounts.pool, parameters.reserveA);
  if (mintB.equals(NATIVE_MINT)) {
    wrapSol(bed, accounts.pool, parameters.reserveB);
  } else {
    bed.mintTokens(mintB, accounts.pool, parameters.reserveB);
  }
  sendAsAuthority({
    sender: bed,
    authority: bed.mintAuthority,
    instructions: [initializeCpPool(accounts, bed.mintAuthority.publicKey, feeBps)],
    what: 'cp_pool deploy',
  });
  return {
    program: program.toBase58(),
    pool: accounts.pool.toBase58(),
    mintA: mintA.toBase58(),
    mintB: mintB.toBase58(),
    vaultA: accounts.vaultA.toBase58(),
    vaultB: accounts.vaultB.toBase58(),
    feeBps,
  };
}

/**
 * Wraps `lamports` of SOL into `owner`'s wrapped SOL account (created if missing, its rent paid
 * by the bed): the bed authority is airdropped the lamports, transfers them to the account and
 * syncs it — the instructions a wallet wraps SOL with. `0n` only opens the account.
 *
 * @example
 * wrapSol(bed, owner.publicKey, 0n); // the owner has a wrapped SOL account, empty
 */
export function wrapSol(bed: SolanaBed, owner: PublicKey, lamports: bigint): PublicKey {
  const account = getAssociatedTokenAddressSync(NATIVE_MINT, owner, true);
  const payer = bed.mintAuthority.publicKey;
  if (lamports > 0n) bed.airdrop(payer, lamports);
  sendAsAuthority({
    sender: bed,
    authority: bed.mintAuthority,
    instructions: [
      createAssociatedTokenAccountIdempotentInstruction(payer, account, owner, NATIVE_MINT),
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: account, lamports }),
      createSyncNativeInstruction(account),
    ],
    what: 'wrap SOL',
  });
  return account;
}
