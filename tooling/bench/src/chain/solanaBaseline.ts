// Bare-SDK equivalents of the Solana adapter's work: web3.js + spl-token, raw JSON-RPC reads.
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { BenchCheckError, expectAmount } from './checks';
import { rawJsonRpc } from './rawJsonRpc';

const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const USDC_DECIMALS = 6;
/** Offset of `amount` (u64 LE) in an SPL token account. */
const TOKEN_AMOUNT_OFFSET = 64;

/** What stays the same from request to request: configuration, resolved once. */
export interface SolanaRouterDepositKeys {
  readonly usdcMint: PublicKey;
  readonly yieldRouter: PublicKey;
  /** ATA(yieldRouter, usdcMint). */
  readonly vault: PublicKey;
}

export function routerDepositKeys(usdcMint: string, yieldRouter: string): SolanaRouterDepositKeys {
  const mint = new PublicKey(usdcMint);
  const router = new PublicKey(yieldRouter);
  return {
    usdcMint: mint,
    yieldRouter: router,
    vault: getAssociatedTokenAddressSync(mint, router, true),
  };
}

/**
 * The same v0 transaction the adapter builds for a router deposit (create the vault ATA
 * idempotently, TransferChecked owner ATA → vault, memo `svc:<planId>`), serialized unsigned
 * to base64 with the given blockhash. Offline.
 */
export function buildRouterDeposit(
  keys: SolanaRouterDepositKeys,
  request: { readonly owner: string; readonly planId: string; readonly amountMicros: bigint },
  blockhash: string,
): string {
  const owner = new PublicKey(request.owner);
  const message = new TransactionMessage({
    payerKey: owner,
    recentBlockhash: blockhash,
    instructions: [
      createAssociatedTokenAccountIdempotentInstruction(
        owner,
        keys.vault,
        keys.yieldRouter,
        keys.usdcMint,
      ),
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(keys.usdcMint, owner, true),
        keys.usdcMint,
        keys.vault,
        owner,
        request.amountMicros,
        USDC_DECIMALS,
      ),
      new TransactionInstruction({
        programId: MEMO_PROGRAM,
        keys: [],
        data: Buffer.from(`svc:${request.planId}`, 'utf8'),
      }),
    ],
  }).compileToV0Message();
  return Buffer.from(new VersionedTransaction(message).serialize()).toString('base64');
}

/** `getLatestBlockhash` (confirmed) with bare fetch: the blockhash a leg needs. */
export async function rawLatestBlockhash(rpcUrl: string): Promise<string> {
  const result = (await rawJsonRpc(rpcUrl, 'getLatestBlockhash', [
    { commitment: 'confirmed' },
  ])) as {
    value?: { blockhash?: unknown };
  };
  const blockhash = result.value?.blockhash;
  if (typeof blockhash !== 'string')
    throw new BenchCheckError('raw getLatestBlockhash: no blockhash');
  return blockhash;
}

export interface SolanaRawReadParameters {
  readonly rpcUrl: string;
  readonly owner: string;
  readonly usdcMint: string;
  readonly lamports: bigint;
  readonly usdcMicros: bigint;
}

/**
 * `getBalance` and `getTokenAccountsByOwner` (mint filter, base64) in parallel with bare fetch,
 * the token amounts summed straight from the account bytes; checks both against the seed.
 */
export async function rawSolanaBalances({
  rpcUrl,
  owner,
  usdcMint,
  lamports,
  usdcMicros,
}: SolanaRawReadParameters): Promise<void> {
  const config = { commitment: 'confirmed' };
  const [sol, tokens] = (await Promise.all([
    rawJsonRpc(rpcUrl, 'getBalance', [owner, config]),
    rawJsonRpc(rpcUrl, 'getTokenAccountsByOwner', [
      owner,
      { mint: usdcMint },
      { ...config, encoding: 'base64' },
    ]),
  ])) as [{ value: number }, { value: { account: { data: [string, string] } }[] }];
  let total = 0n;
  for (const { account } of tokens.value) {
    total += Buffer.from(account.data[0], 'base64').readBigUInt64LE(TOKEN_AMOUNT_OFFSET);
  }
  expectAmount('raw getBalance', BigInt(sol.value), lamports);
  expectAmount('raw getTokenAccountsByOwner', total, usdcMicros);
}
