import type { SettlementLeg } from '@yieldrouter/ledger';
import type { Chain, Receipt } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { NATIVE_ASSET, ledgerAssetOf } from './swapBooking';

/** An unwrap leg's receipt as settlement reads it, with the wrapped asset it takes from. */
export interface UnwrapLegReceipt {
  readonly receipt: Receipt;
  /** The wrapped native token, as the books name it. */
  readonly wrappedAsset: string;
  /** `wrap`: native into wrapped before a swap from the native token (issue 41). */
  readonly direction: 'wrap' | 'unwrap';
  /** The asset the leg takes out of liquid (the wrapped token; native for a wrap). */
  readonly takenAsset: string;
}

/**
 * Reads an unwrap leg's transaction through the chain adapter: the wrapped native token is the
 * plan's swap output (a gas-sponsor plan swaps USDC for it, then unwraps); the amount is what
 * the token's logs show the owner unwrapped, never the plan's figure. A wrap leg (effect `wrap`,
 * before a swap from the native token) reads the same way: its wrapped native is the plan's swap
 * input, its amount what the token's logs show wrapped for the owner.
 */
export async function readUnwrapLegReceipt(
  adapters: ChainAdapters,
  leg: SettlementLeg,
  txId: string,
): Promise<UnwrapLegReceipt> {
  const swap = leg.swap;
  const field = (key: string) =>
    typeof swap === 'object' && swap !== null && !Array.isArray(swap) ? swap[key] : undefined;
  const direction = leg.effect === 'wrap' ? 'wrap' : 'unwrap';
  const side = direction === 'wrap' ? 'input' : 'output';
  const wrappedNative = field(`${side}TokenAddress`);
  const symbol = field(`${side}Token`);
  if (typeof wrappedNative !== 'string' || typeof symbol !== 'string') {
    throw new Error(`plan ${leg.planId}: the stored swap names no wrapped native token`);
  }
  const wrappedAsset = ledgerAssetOf({ symbol, address: wrappedNative });
  const wrapping = {
    wrappedAsset,
    direction,
    takenAsset: direction === 'wrap' ? NATIVE_ASSET : wrappedAsset,
  } as const;
  const adapter = adapters[leg.chain as Chain];
  const reader = direction === 'wrap' ? adapter.readWrapReceipt : adapter.readUnwrapReceipt;
  if (!reader) {
    return {
      receipt: {
        status: 'unavailable',
        reason: 'no_standard_reader',
        detail: `${leg.chain} reads no ${direction} receipts`,
      },
      ...wrapping,
    };
  }
  const read = await reader.call(adapter, {
    txId,
    planId: leg.planId,
    owner: leg.owner as string,
    wrappedNative,
  });
  if (read.status !== 'confirmed') return { receipt: read, ...wrapping };
  return {
    receipt: {
      status: 'confirmed',
      txId: read.txId,
      planId: leg.planId,
      amountMicros: read.amount,
      shares: null,
      block: read.block,
    },
    ...wrapping,
  };
}
