import type { LiteSVM } from 'litesvm';
import { invalidParams } from './rpcError';
import { stringParam } from './rpcParams';
import type { RpcMethods } from './rpcMethods';

/** How many blocks a blockhash stays valid on mainnet (what `lastValidBlockHeight` adds). */
export const BLOCKHASH_VALIDITY_BLOCKS = 150n;

/**
 * Cluster reads: getLatestBlockhash, isBlockhashValid, getSlot, getBlockHeight,
 * getMinimumBalanceForRentExemption, getVersion, getHealth. The bed's block height is its slot.
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
    getVersion: () => ({ 'solana-core': '2.2.0-litesvm-bed', 'feature-set': 0 }),
    getHealth: () => 'ok',
  };
}
