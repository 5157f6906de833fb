import type { LiteSVM } from 'litesvm';
import { decodeMessage, feeForMessage } from './feeForMessage';
import { invalidParams } from './rpcError';
import { stringParam } from './rpcParams';
import type { RpcMethods } from './rpcMethods';

/** How many blocks a blockhash stays valid on mainnet (what `lastValidBlockHeight` adds). */
export const BLOCKHASH_VALIDITY_BLOCKS = 150n;

/**
 * Cluster reads: getLatestBlockhash, isBlockhashValid, getSlot, getBlockHeight,
 * getMinimumBalanceForRentExemption, getFeeForMessage, getVersion, getHealth. The bed's block
 * height is its slot. getFeeForMessage answers `{context, value}`: the fee the message will be
 * charged (`feeForMessage`), or null when its blockhash is not the bed's current one (a node
 * answers null for a blockhash it does not know).
 */
export function clusterMethods(svm: LiteSVM, context: () => object): RpcMethods {
  const slot = () => svm.getClock().slot;
  return {
    getLatestBlockhash: () => ({
      context: context(),
      value: {
        blockhash: svm.latestBlockhash(),
        lastValidBlockHeight: Number(slot() + BLOCKHASH_VALIDITY_BLOCKS),
      },
    }),
    isBlockhashValid: (params) => ({
      context: context(),
      value: stringParam(params, 0, 'blockhash') === svm.latestBlockhash(),
    }),
    getSlot: () => Number(slot()),
    getBlockHeight: () => Number(slot()),
    getMinimumBalanceForRentExemption: (params) => {
      const size = params[0];
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) {
        throw invalidParams('data length must be a non-negative integer');
      }
      return Number(svm.minimumBalanceForRentExemption(BigInt(size)));
    },
    getFeeForMessage: (params) => {
      const message = decodeMessage(stringParam(params, 0, 'message'));
      const known = message.recentBlockhash === svm.latestBlockhash();
      return { context: context(), value: known ? Number(feeForMessage(message)) : null };
    },
    getVersion: () => ({ 'solana-core': '2.2.0-litesvm-bed', 'feature-set': 0 }),
    getHealth: () => 'ok',
  };
}
