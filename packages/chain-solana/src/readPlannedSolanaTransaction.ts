import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { Receipt, Unavailable } from '@yieldrouter/schemas';
import type {
  MessageAccountKeys,
  MessageCompiledInstruction,
  PublicKey,
  VersionedTransactionResponse,
} from '@solana/web3.js';
import bs58 from 'bs58';
import { describeRpcFailure, rpcNotConfigured } from './describeRpcFailure';
import { MEMO_PROGRAM_ID, planMemoText } from './instructions/planMemo';
import { parsePublicKey } from './parsePublicKey';
import type { SolanaContext } from './solanaContext';
import { usdcMintMissing } from './usdcMintMissing';

type Meta = NonNullable<VersionedTransactionResponse['meta']>;

export interface ReadPlannedSolanaTransactionParameters {
  readonly txId: string;
  readonly planId: string;
  readonly owner: string;
  /** What the caller must know before any RPC call (a receipt mint, a program id), if missing. */
  readonly missing?: Unavailable | undefined;
}

export type ReadPlannedSolanaTransactionReturnType =
  /** The answers every leg receipt gives before it reads an amount. */
  | Exclude<Receipt, { readonly status: 'confirmed' }>
  | {
      readonly status: 'ran';
      readonly owner: PublicKey;
      readonly mint: PublicKey;
      readonly meta: Meta;
      readonly keys: MessageAccountKeys;
      readonly slot: number;
      /** The transaction's top-level instructions (program and accounts as key indexes). */
      readonly instructions: readonly MessageCompiledInstruction[];
    };

function memosOf(response: VersionedTransactionResponse, keys: MessageAccountKeys): string[] {
  return response.transaction.message.compiledInstructions
    .filter((instruction) => keys.get(instruction.programIdIndex)?.equals(MEMO_PROGRAM_ID))
    .map((instruction) => Buffer.from(instruction.data).toString('utf8'));
}

/**
 * A leg's transaction, proven the leg's before any amount is read from it: `getTransaction` at
 * `confirmed`. Not found → pending; a fee payer other than the owner or no memo `svc:<planId>`
 * → mismatch; `meta.err` → failed; else `ran` with its meta and account keys. No USDC mint,
 * `missing`, or no RPC → unavailable (in that order, before any RPC call).
 *
 * @throws InvalidChainInputError for a txId that is not a signature, a bad owner or planId.
 * @example
 * const read = await readPlannedSolanaTransaction(context, { txId, planId, owner })
 * if (read.status !== 'ran') return read
 */
export async function readPlannedSolanaTransaction(
  context: SolanaContext,
  query: ReadPlannedSolanaTransactionParameters,
): Promise<ReadPlannedSolanaTransactionReturnType> {
  if (bs58.decodeUnsafe(query.txId)?.length !== 64) {
    throw new InvalidChainInputError('txId', 'txId: not a base58 Solana transaction signature');
  }
  const owner = parsePublicKey(query.owner);
  if (!owner) throw new InvalidChainInputError('owner', 'owner: not a base58 Solana public key');
  if (!isPlanId(query.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  const mint = context.usdcMint;
  if (!mint) {
    return usdcMintMissing('receipt');
  }
  if (query.missing) return query.missing;
  if (context.rpc.status !== 'ok') return rpcNotConfigured('receipt', context.rpc.detail);
  let response: VersionedTransactionResponse | null;
  try {
    response = await context.rpc.connection.getTransaction(query.txId, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
  } catch (error) {
    return describeRpcFailure(error, 'receipt');
  }
  if (!response) return { status: 'pending', txId: query.txId };
  const { meta } = response;
  if (!meta) {
    return { status: 'unavailable', reason: 'rpc_bad_response', detail: 'receipt: no meta' };
  }
  try {
    const keys = response.transaction.message.getAccountKeys({
      accountKeysFromLookups: meta.loadedAddresses ?? null,
    });
    const feePayer = keys.get(0);
    if (!feePayer?.equals(owner)) {
      return {
        status: 'mismatch',
        txId: query.txId,
        reason: `fee payer ${feePayer?.toBase58() ?? 'none'} is not the owner ${owner.toBase58()}`,
      };
    }
    const memos = memosOf(response, keys);
    if (!memos.includes(planMemoText(query.planId))) {
      return {
        status: 'mismatch',
        txId: query.txId,
        reason: `no memo ${planMemoText(query.planId)} (found: ${memos.join(', ') || 'none'})`,
      };
    }
    if (meta.err !== null) {
      return { status: 'failed', txId: query.txId, reason: JSON.stringify(meta.err) };
    }
    return {
      status: 'ran',
      owner,
      mint,
      meta,
      keys,
      slot: response.slot,
      instructions: response.transaction.message.compiledInstructions,
    };
  } catch (error) {
    return describeRpcFailure(error, 'receipt');
  }
}
