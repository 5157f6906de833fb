import type { SettlementLeg } from '@yieldrouter/ledger';
import type { Chain, Receipt } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { ledgerAssetOf } from './swapBooking';
import type { SwapMovement } from './swapBooking';

/** What a swap plan keeps for its swap leg's settlement (`plans.swap`, migration 0020). */
interface StoredSwap {
  readonly inputToken: string;
  readonly outputToken: string;
  readonly inputTokenAddress: string;
  readonly outputTokenAddress: string;
  readonly swapTarget: string;
  readonly minAmountOutMicros: string;
  readonly feeRecipient: string | null;
}

function storedSwap(leg: SettlementLeg): StoredSwap {
  const swap = leg.swap;
  const text = (key: string) =>
    typeof swap === 'object' &&
    swap !== null &&
    !Array.isArray(swap) &&
    typeof swap[key] === 'string'
      ? swap[key]
      : undefined;
  const fields = {
    inputToken: text('inputToken'),
    outputToken: text('outputToken'),
    inputTokenAddress: text('inputTokenAddress'),
    outputTokenAddress: text('outputTokenAddress'),
    swapTarget: text('swapTarget'),
    minAmountOutMicros: text('minAmountOutMicros'),
  };
  const missing = Object.entries(fields).find(([, value]) => value === undefined);
  if (missing) throw new Error(`plan ${leg.planId}: the stored swap has no ${missing[0]}`);
  return {
    ...(fields as Record<keyof typeof fields, string>),
    feeRecipient: text('feeRecipient') ?? null,
  };
}

/** A swap leg's receipt as settlement reads it: the leg's receipt, plus what the swap moved. */
export interface SwapLegReceipt {
  readonly receipt: Receipt;
  /** Confirmed only: what the swap moved, per asset, from the receipt. */
  readonly moved?: SwapMovement;
  /** The assets the swap trades, as the books name them. */
  readonly inputAsset: string;
  readonly outputAsset: string;
}

/**
 * Reads a swap leg's transaction through the chain adapter: the owner, the plan tag and the
 * quoted contract must match; the amount out is what the output token's Transfer logs paid
 * the owner (never the quote); a fill below the plan's minAmountOut, or a revert, fails it.
 */
export async function readSwapLegReceipt(
  adapters: ChainAdapters,
  leg: SettlementLeg,
  txId: string,
): Promise<SwapLegReceipt> {
  const swap = storedSwap(leg);
  const assets = {
    inputAsset: ledgerAssetOf({ symbol: swap.inputToken, address: swap.inputTokenAddress }),
    outputAsset: ledgerAssetOf({ symbol: swap.outputToken, address: swap.outputTokenAddress }),
  };
  const adapter = adapters[leg.chain as Chain];
  if (!adapter.readSwapReceipt) {
    return {
      receipt: {
        status: 'unavailable',
        reason: 'no_standard_reader',
        detail: `${leg.chain} reads no swap receipts`,
      },
      ...assets,
    };
  }
  const read = await adapter.readSwapReceipt({
    txId,
    planId: leg.planId,
    owner: leg.owner as string,
    to: swap.swapTarget,
    inputToken: swap.inputTokenAddress,
    outputToken: swap.outputTokenAddress,
    minAmountOutMicros: BigInt(swap.minAmountOutMicros),
    feeRecipient: swap.feeRecipient,
  });
  if (read.status !== 'confirmed') return { receipt: read, ...assets };
  return {
    receipt: {
      status: 'confirmed',
      txId: read.txId,
      planId: leg.planId,
      amountMicros: read.amountOutMicros,
      shares: null,
      block: read.block,
    },
    moved: {
      ...assets,
      amountIn: read.amountInMicros,
      amountOut: read.amountOutMicros,
      feePaid: read.feePaidMicros,
    },
    ...assets,
  };
}
