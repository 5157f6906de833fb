import { MINT_SIZE, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import type { VersionedTransaction } from '@solana/web3.js';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';
import { bedTokenOperations, toPublicKey } from './bedTokenOperations';
import { startJsonRpcServer } from './jsonRpcServer';
import { solanaRpcMethods } from './rpcMethods';
import { SolanaLedger } from './solanaLedger';
import type { ExecutionOutcome, LedgerEntry, RecordedEffects } from './solanaLedger';
import { encodeMint } from './splAccounts';
import { svmAddress, writeAccount } from './svmAccounts';
import type { SvmLamports } from './svmAccounts';

/**
 * Circle's USDC mint on Solana mainnet (`NATIVE_USDC.solana` in @yieldrouter/schemas, which the
 * bed does not depend on). The bed writes its mint there so adapters run with their defaults.
 */
export const SOLANA_MAINNET_USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const USDC_DECIMALS = 6;
const LAMPORTS_PER_SOL = 1_000_000_000n;

export interface StartSolanaBedOptions {
  /** Where to put the USDC mint (default: the real mainnet mint address). */
  readonly usdcMint?: string;
}

/** A local Solana: litesvm plus a JSON-RPC endpoint that web3.js `Connection` can talk to. */
export interface SolanaBed {
  /** `http://127.0.0.1:<port>`: pass it as the adapter's `rpcUrl`. */
  readonly rpcUrl: string;
  /** The SVM itself, for checks a test wants to make without RPC. */
  readonly svm: LiteSVM;
  /** The USDC mint address (base58; 6 decimals). */
  readonly usdcMint: string;
  /** Pays for fixtures and holds every bed mint's authority. A bed key, never a real one. */
  readonly mintAuthority: Keypair;
  /** Adds lamports to `pubkey` (creates the account). */
  airdrop(pubkey: PublicKey | string, lamports: bigint): void;
  /** A new keypair holding `lamports` (default 10 SOL): a test owner's wallet. */
  createFundedKeypair(lamports?: bigint): Keypair;
  /**
   * Mints USDC to `owner`'s associated token account (created if missing) with a real
   * MintToChecked transaction. Returns the token account.
   */
  mintUsdc(owner: PublicKey | string, amountMicros: bigint): PublicKey;
  /** The sum of `owner`'s USDC token accounts, read from the SVM (0n when there are none). */
  usdcBalance(owner: PublicKey | string): bigint;
  /** Creates another SPL mint (e.g. a venue's receipt token) with the bed's mint authority. */
  createMint(decimals: number): PublicKey;
  /** Like `mintUsdc`, for any mint the bed's authority controls. Returns the token account. */
  mintTokens(mint: PublicKey | string, owner: PublicKey | string, amount: bigint): PublicKey;
  /** The sum of `owner`'s token accounts for `mint`, read from the SVM. */
  tokenBalance(mint: PublicKey | string, owner: PublicKey | string): bigint;
  /** Runs a signed transaction as the RPC would (preflight on unless told otherwise). */
  send(
    transaction: VersionedTransaction,
    options?: { readonly preflight?: boolean },
  ): ExecutionOutcome;
  /** Lays down a signed transaction as landed without running it (`SolanaLedger.record`). */
  record(transaction: VersionedTransaction, effects: RecordedEffects): LedgerEntry;
  /** A landed transaction by base58 signature. */
  transaction(signature: string): LedgerEntry | undefined;
  /** The blockhash transactions must use now. */
  latestBlockhash(): string;
  /** Closes the RPC endpoint and its connections. */
  stop(): Promise<void>;
}

/**
 * Starts a litesvm-backed Solana bed with a USDC mint at the mainnet address and a JSON-RPC
 * endpoint on 127.0.0.1. Always `stop()` it (an open server keeps jest alive).
 *
 * @example
 * const bed = await startSolanaBed();
 * const owner = bed.createFundedKeypair();
 * bed.mintUsdc(owner.publicKey, 25_000_000n); // 25 USDC
 * const connection = new Connection(bed.rpcUrl, 'confirmed');
 * await bed.stop();
 */
export async function startSolanaBed(options: StartSolanaBedOptions = {}): Promise<SolanaBed> {
  // The wrapped SOL mint exists on every cluster (USDC/SOL pools, wrapping and unwrapping).
  const svm = new LiteSVM().withNativeMints();
  const ledger = new SolanaLedger(svm);
  const usdcMint = new PublicKey(options.usdcMint ?? SOLANA_MAINNET_USDC_MINT);
  const mintAuthority = Keypair.generate();

  const airdrop = (pubkey: PublicKey | string, lamports: bigint) => {
    const address = toPublicKey(pubkey).toBase58();
    const result = svm.airdrop(svmAddress(address), lamports as SvmLamports);
    if (result === null || result instanceof FailedTransactionMetadata) {
      throw new Error(`airdrop to ${address} failed`);
    }
  };
  airdrop(mintAuthority.publicKey, 100n * LAMPORTS_PER_SOL);
  writeAccount(svm, {
    address: usdcMint.toBase58(),
    lamports: svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)),
    owner: TOKEN_PROGRAM_ID.toBase58(),
    data: encodeMint({
      decimals: USDC_DECIMALS,
      supply: 0n,
      mintAuthority: mintAuthority.publicKey,
    }),
    executable: false,
  });
  const tokens = bedTokenOperations(svm, ledger, mintAuthority);

  const server = await startJsonRpcServer(solanaRpcMethods(svm, ledger));
  return {
    rpcUrl: server.url,
    svm,
    usdcMint: usdcMint.toBase58(),
    mintAuthority,
    airdrop,
    createFundedKeypair: (lamports = 10n * LAMPORTS_PER_SOL) => {
      const keypair = Keypair.generate();
      airdrop(keypair.publicKey, lamports);
      return keypair;
    },
    mintUsdc: (owner, amountMicros) => tokens.mintTokens(usdcMint, owner, amountMicros),
    usdcBalance: (owner) => tokens.tokenBalance(usdcMint, owner),
    ...tokens,
    send: (transaction, sendOptions = {}) =>
      ledger.execute(transaction, { preflight: sendOptions.preflight ?? true }),
    record: (transaction, effects) => ledger.record(transaction, effects),
    transaction: (signature) => ledger.get(signature),
    latestBlockhash: () => svm.latestBlockhash(),
    stop: () => server.close(),
  };
}
