import { TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { AddressLookupTableAccount, PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { LegAction, LegBuild } from '@yieldrouter/schemas';
import { describeRpcFailure } from './describeRpcFailure';
import type { SolanaContext } from './solanaContext';

/** Everything of a leg except what the chain supplies (the blockhash). */
export interface PrepareSolanaLegParameters {
  readonly owner: PublicKey;
  readonly instructions: readonly TransactionInstruction[];
  readonly action: LegAction;
  readonly summary: string;
  readonly planId: string;
  readonly amountMicros: bigint;
  /** Address lookup tables to compile with (a swap source's); read from the chain. */
  readonly lookupTables?: readonly PublicKey[];
}

/**
 * Compiles the instructions into an unsigned v0 transaction (fee payer = owner) with a recent
 * blockhash read from the RPC. No RPC, or an RPC that fails: blocked `rpc_unavailable`; a
 * blockhash is never made up.
 */
export async function prepareSolanaLeg(
  context: SolanaContext,
  leg: PrepareSolanaLegParameters,
): Promise<LegBuild> {
  if (context.rpc.status !== 'ok') {
    return {
      status: 'blocked',
      blockers: [{ code: 'rpc_unavailable', message: `Solana: ${context.rpc.detail}` }],
    };
  }
  let latest: { blockhash: string; lastValidBlockHeight: number };
  try {
    latest = (await context.rpc.connection.getLatestBlockhashAndContext('confirmed')).value;
  } catch (error) {
    const failure = describeRpcFailure(error, 'Solana latest blockhash');
    return {
      status: 'blocked',
      blockers: [
        { code: 'rpc_unavailable', message: failure.detail, details: { reason: failure.reason } },
      ],
    };
  }
  const lookupTables: AddressLookupTableAccount[] = [];
  for (const key of leg.lookupTables ?? []) {
    try {
      const table = (await context.rpc.connection.getAddressLookupTable(key)).value;
      if (!table) {
        return {
          status: 'blocked',
          blockers: [
            {
              code: 'rpc_unavailable',
              message: `Solana: address lookup table ${key.toBase58()} does not exist`,
            },
          ],
        };
      }
      lookupTables.push(table);
    } catch (error) {
      const failure = describeRpcFailure(error, 'Solana address lookup table');
      return {
        status: 'blocked',
        blockers: [
          { code: 'rpc_unavailable', message: failure.detail, details: { reason: failure.reason } },
        ],
      };
    }
  }
  const message = new TransactionMessage({
    payerKey: leg.owner,
    recentBlockhash: latest.blockhash,
    instructions: [...leg.instructions],
  }).compileToV0Message(lookupTables);
  const transaction = new VersionedTransaction(message);
  return {
    status: 'prepared',
    legs: [
      {
        chain: 'solana',
        action: leg.action,
        summary: leg.summary,
        planId: leg.planId,
        amountMicros: leg.amountMicros,
        settles: true,
        payload: {
          encoding: 'solana-v0-base64',
          transaction: Buffer.from(transaction.serialize()).toString('base64'),
          lastValidBlockHeight: String(latest.lastValidBlockHeight),
        },
      },
    ],
  };
}
