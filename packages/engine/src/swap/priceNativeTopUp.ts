import type { FeeSchedule } from '@yieldrouter/fees';
import type { ChainAdapter } from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';
import {
  blockedTopUp,
  feeRecipientBlockers,
  sizeExactInSale,
  topUpQuoteFor,
  topUpSwap,
} from './nativeTopUp';
import type { NativeTopUp } from './nativeTopUp';
import type { SwapChain, SwapsConfig } from './swapSettings';
import type { SwapQuoteSource } from './swapQuoteSource';

export interface PriceNativeTopUpParameters {
  readonly chain: SwapChain;
  readonly owner: string;
  readonly planId: string;
  /** Wei the wallet lacks. */
  readonly nativeNeeded: bigint;
  readonly adapter: ChainAdapter;
  readonly swaps: SwapsConfig;
  readonly source: SwapQuoteSource | undefined;
  readonly schedule: FeeSchedule;
}

export type PriceNativeTopUpReturnType = NativeTopUp;

/**
 * Prices `nativeNeeded` wei in USDC through the quote source and builds the top-up legs. 0x
 * quotes a sell amount: `sizeExactInSale` finds the sale whose slippage-bound minimum covers
 * `nativeNeeded`; the service fee (gasSponsorFeeBps) is taken from the USDC by the swap itself. Legs:
 * approve when the allowance is short, the quote's swap, then unwrap exactly `nativeNeeded`.
 */
export async function priceNativeTopUp(
  parameters: PriceNativeTopUpParameters,
): Promise<PriceNativeTopUpReturnType> {
  const { chain, owner, planId, nativeNeeded, adapter, swaps, source, schedule } = parameters;
  const [usdc, wrapped] = [
    swaps.tokens[chain].find((token) => token.symbol === 'USDC'),
    swaps.tokens[chain].find((token) => token.symbol === 'WETH'),
  ];
  const recipient = swaps.feeRecipients[chain];
  if (!source || !source.chains.includes(chain) || !usdc || !wrapped) {
    return blockedTopUp([blocker('quote_source_not_configured', { field: 'SVC_ZEROX_BASE_URL' })]);
  }
  const unpaid = feeRecipientBlockers(
    recipient,
    schedule,
    `SVC_${chain.toUpperCase()}_SWAP_FEE_RECIPIENT`,
  );
  if (unpaid.length > 0) return blockedTopUp(unpaid);
  const quoteFor = topUpQuoteFor(source, {
    chain,
    input: usdc,
    output: wrapped,
    owner,
    recipient,
    schedule,
  });
  const sale = await sizeExactInSale({
    needed: nativeNeeded,
    quoteFor,
    source: source.name,
    unit: 'wei',
  });
  if (sale.status !== 'ok') return blockedTopUp(sale.blockers);
  const { sell, answer } = sale;
  const allowance = adapter.readAllowance
    ? await adapter.readAllowance({ token: usdc.address, owner, spender: answer.allowanceTarget })
    : undefined;
  if (!allowance || allowance.status !== 'ok' || !adapter.buildSwap || !adapter.buildUnwrap) {
    const detail = allowance?.status === 'unavailable' ? allowance.detail : 'no allowance reader';
    return blockedTopUp([blocker('rpc_unavailable', { details: { chain, detail } })]);
  }
  const shownIn = `${formatUnits(sell, usdc.decimals)} USDC`;
  const shownOut = `${formatUnits(nativeNeeded, 18)} ETH`;
  const legs = [
    ...adapter.buildSwap({
      planId,
      owner,
      inputToken: usdc.address,
      amountInMicros: sell,
      allowance: allowance.allowance,
      spender: answer.allowanceTarget,
      call: { to: answer.transaction.to, data: answer.transaction.data },
      summaries: {
        approve: `Approve ${answer.allowanceTarget} to take ${shownIn} on ${chain} (gas top-up)`,
        swap: `Swap ${shownIn} for at least ${shownOut} of WETH on ${chain} via ${answer.source}`,
      },
    }),
    adapter.buildUnwrap({
      planId,
      owner,
      wrappedNative: wrapped.address,
      amount: nativeNeeded,
      summary: `Unwrap ${shownOut} of WETH into native gas on ${chain}`,
    }),
  ];
  return {
    status: 'prepared',
    build: { status: 'prepared', legs },
    grossMicros: sell,
    quote: answer,
    swap: topUpSwap({
      tokens: { input: usdc, output: wrapped },
      grossMicros: sell,
      quote: answer,
      swapTarget: answer.transaction.to,
      schedule,
      feeRecipient: recipient,
    }),
  };
}
