import type { SettlementLeg } from '@yieldrouter/ledger';
import type { Chain, Receipt } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { ledgerAssetOf } from './swapBooking';

/** An unwrap leg's receipt as settlement reads it, with the wrapped asset it takes from. */
export interface UnwrapLegReceipt {
  readonly receipt: Receipt;
  /** The wrapped native token, as the books name it. */
  readonly wrappedAsset: string;
}

/**
 * Reads an unwrap leg's transaction through the chain adapter: the wrapped native token is the
 * plan's swap output (a gas-sponsor plan swaps USDC for it, then unwraps); the amount is what
 * the token's logs show the owner unwrapped, never the plan's figure.
 */
export async function readUnwrapLegReceipt(
  adapters: ChainAdapters,
  leg: SettlementLeg,
  txId: string,
): Promise<UnwrapLegReceipt> {
  const swap = leg.swap;
  const field = (key: string) =>
    typeof swap === 'object' && swap !== null && !Array.isArray(swap) ? swap[key] : undefined;
  const wrappedNative = field('outputTokenAddress');
  const symbol = field('outputToken');
  if (typeof wrappedNative !== 'string' || typeof symbol !== 'string') {
    throw new Error(`plan ${leg.planId}: the stored swap names no wrapped native token`);
  }
  const wrappedAsset = ledgerAssetOf({ symbol, address: wrappedNative });
  const adapter = adapters[leg.chain as Chain];
  if (!adapter.readUnwrapReceipt) {
    return {
      receipt: {
        status: 'unavailable',
        reason: 'no_standard_reader',
        detail: `${leg.chain} reads no unwrap receipts`,
      },
      wrappedAsset,
    };
  }
  const read = await adapter.readUnwrapReceipt({
    txId,
    planId: leg.planId,
    owner: leg.owner as string,
    wrappedNative,
  });
  if (read.status !== 'confirmed') return { receipt: read, wrappedAsset };
  return {
    receipt: {
      status: 'confirmed',
      txId: read.txId,
      planId: leg.planId,
      amountMicros: read.amount,
      shares: null,
      block: read.block,
    },
    wrappedAsset,
  };
}
