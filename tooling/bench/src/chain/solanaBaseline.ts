// Bare-SDK equivalents of the Solana adapter's work: web3.js + spl-token, raw JSON-RPC reads.
import { createHash } from 'node:crypto';
import {
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import {
  PublicKey,
  SYSVAR_INSTRUCTIONS_PUBKEY,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { BenchCheckError, expectAmount } from './checks';
import { rawJsonRpc } from './rawJsonRpc';

const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
/** Anchor's discriminator of the router program's `deposit`: sha256("global:deposit")[0..8]. */
const DEPOSIT_DISCRIMINATOR = createHash('sha256').update('global:deposit').digest().subarray(0, 8);
/** Offset of `amount` (u64 LE) in an SPL token account. */
const TOKEN_AMOUNT_OFFSET = 64;

/** What stays the same from request to request: configuration, resolved once. */
export interface SolanaRouterDepositKeys {
  readonly programId: PublicKey;
  readonly usdcMint: PublicKey;
  readonly yieldRouter: PublicKey;
  /** ATA(yieldRouter, usdcMint). */
  readonly vault: PublicKey;
}

export function routerDepositKeys(
  programId: string,
  usdcMint: string,
  yieldRouter: string,
): SolanaRouterDepositKeys {
  const mint = new PublicKey(usdcMint);
  const router = new PublicKey(yieldRouter);
  return {
    programId: new PublicKey(programId),
    usdcMint: mint,
    yieldRouter: router,
    vault: getAssociatedTokenAddressSync(mint, router, true),
  };
}

/** `deposit(amount: u64, plan_id: [u8; 16])` of the router program, with its accounts in order. */
function routerDepositInstruction(
  keys: SolanaRouterDepositKeys,
  owner: PublicKey,
  amountMicros: bigint,
  planId: string,
): TransactionInstruction {
  const data = Buffer.alloc(32);
  DEPOSIT_DISCRIMINATOR.copy(data, 0);
  data.writeBigUInt64LE(amountMicros, 8);
  Buffer.from(planId.slice('plan_'.length), 'hex').copy(data, 16);
  const [position] = PublicKey.findProgramAddressSync(
    [Buffer.from('position'), owner.toBuffer()],
    keys.programId,
  );
  const meta = (pubkey: PublicKey, isWritable: boolean, isSigner = false) => ({
    pubkey,
    isSigner,
    isWritable,
  });
  return new TransactionInstruction({
    programId: keys.programId,
    keys: [
      meta(owner, true, true),
      meta(keys.yieldRouter, true),
      meta(keys.vault, true),
      meta(getAssociatedTokenAddressSync(keys.usdcMint, owner, true), true),
      meta(keys.usdcMint, false),
      meta(TOKEN_PROGRAM_ID, false),
      meta(position, true),
      meta(SystemProgram.programId, false),
      meta(SYSVAR_INSTRUCTIONS_PUBKEY, false),
    ],
    data,
  });
}

/**
 * The same v0 transaction the adapter builds for a router deposit (create the vault ATA
 * idempotently, the router program's `deposit` into the owner's position, memo `svc:<planId>`),
 * serialized unsigned to base64 with the given blockhash. Offline.
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
      routerDepositInstruction(keys, owner, request.amountMicros, request.planId),
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
