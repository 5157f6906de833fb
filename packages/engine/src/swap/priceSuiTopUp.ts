import { computeGasSponsorFee } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { buildSuiSwapLeg } from '@yieldrouter/chain-sui';
import type { ChainAdapter, GasSizing, UnsignedLeg } from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';
import type { CetusConfig } from './cetusSettings';
import {
  blockedTopUp,
  feeRecipientBlockers,
  sizeExactInSale,
  topUpQuoteFor,
  topUpSwap,
} from './nativeTopUp';
import type { NativeTopUp } from './nativeTopUp';
import type { SuiSwapQuote } from './suiSwapQuote';
import type { SwapQuoteSource } from './swapQuoteSource';

export interface PriceSuiTopUpParameters {
  readonly owner: string;
  readonly planId: string;
  /** Mist the wallet lacks for the plan's legs (their budgets less what it holds). */
  readonly nativeNeeded: bigint;
  /** Mist the wallet holds: it pays the top-up's own gas. */
  readonly nativeHeld: bigint;
  readonly adapter: ChainAdapter;
  /** The Cetus settings; undefined blocks as an unconfigured source does. */
  readonly cetus: CetusConfig | undefined;
  /** The Cetus quote source; undefined when it is not configured. */
  readonly source: SwapQuoteSource<SuiSwapQuote> | undefined;
  readonly schedule: FeeSchedule;
}

/** The top-up leg's own gas, from its dry run: the budget it needs held, the mist it burns. */
function topUpGas(sizing: Extract<GasSizing, { status: 'ok' }>) {
  const cost = (name: string) => BigInt(sizing.details?.[name] ?? '0');
  return {
    budget: sizing.nativeRequired,
    burnt: cost('computationCost') + cost('storageCost') - cost('storageRebate'),
  };
}

/**
 * Prices the SUI a wallet lacks in USDC through Cetus and builds the one top-up leg: a Cetus
 * swap USDC → SUI (`buildSuiSwapLeg`, the Sui swap plan's leg) with the service fee
 * (gasSponsorFeeBps, `computeGasSponsorFee` of the USDC sold, rounded down) split off the input
 * to the Sui fee recipient in the same programmable transaction. SUI is native: no unwrap.
 *
 * The top-up pays its own gas from the wallet's SUI, so it is dry-run too (`adapter.sizeGas`):
 * the wallet must hold its budget, and the swap's slippage-bound minimum must cover
 * `nativeNeeded` plus the gas it burns (computation + storage − rebate), so that afterwards the
 * wallet holds the plan's budgets. Cetus quotes a sell amount: `sizeExactInSale` sizes it.
 *
 * Blocked: no Cetus source (`quote_source_not_configured` naming the first missing setting,
 * `SVC_CETUS_BASE_URL` first) or no fee recipient while the fee is charged (naming
 * `SVC_SUI_SWAP_FEE_RECIPIENT`); the source down, slow, answering garbage or no route; the
 * top-up's dry run failing (`gas_estimate_unavailable`, e.g. the wallet lacks the USDC) or the
 * RPC unreadable (`rpc_unavailable`); a wallet holding less SUI than the top-up's own budget
 * (`gas_estimate_unavailable`: it could not send it).
 */
export async function priceSuiTopUp(parameters: PriceSuiTopUpParameters): Promise<NativeTopUp> {
  const { owner, planId, nativeNeeded, nativeHeld, adapter, cetus, source, schedule } = parameters;
  const usdc = cetus?.tokens.find((token) => token.symbol === 'USDC');
  const sui = cetus?.tokens.find((token) => token.symbol === 'SUI');
  if (!source || !usdc || !sui) {
    const field = cetus?.missing ?? 'SVC_CETUS_BASE_URL';
    return blockedTopUp([blocker('quote_source_not_configured', { field })]);
  }
  const recipient = cetus?.feeRecipient;
  const unpaid = feeRecipientBlockers(recipient, schedule, 'SVC_SUI_SWAP_FEE_RECIPIENT');
  if (unpaid.length > 0) return blockedTopUp(unpaid);
  const feeOf = (grossMicros: bigint) => computeGasSponsorFee({ grossMicros, schedule }).feeMicros;
  const quoteFor = topUpQuoteFor(source, {
    chain: 'sui',
    input: usdc,
    output: sui,
    owner,
    recipient,
    schedule,
  });
  const legOf = (sell: bigint, quote: SuiSwapQuote): Promise<UnsignedLeg> => {
    const fee = feeOf(sell);
    const shownIn = `${formatUnits(sell, usdc.decimals)} USDC`;
    const shownOut = `${formatUnits(quote.minAmountOutMicros, sui.decimals)} SUI`;
    return buildSuiSwapLeg({
      planId,
      owner,
      inputCoinType: usdc.address,
      outputCoinType: sui.address,
      amountInMicros: sell,
      serviceFee: fee > 0n && recipient ? { amountMicros: fee, recipient } : null,
      routes: quote.routes,
      minAmountOutMicros: quote.minAmountOutMicros,
      packageId: quote.packageId,
      globalConfigId: quote.globalConfigId,
      summary: `Swap ${shownIn} for at least ${shownOut} on sui via ${quote.source} (gas top-up, plan ${planId})`,
    });
  };
  const sized = { needed: nativeNeeded, quoteFor, source: source.name, unit: 'mist' };
  let sale = await sizeExactInSale(sized);
  if (sale.status !== 'ok') return blockedTopUp(sale.blockers);
  let leg = await legOf(sale.sell, sale.answer);

  const gas = adapter.sizeGas
    ? await adapter.sizeGas({ owner, payloads: [leg.payload] })
    : undefined;
  if (!gas || gas.status === 'unavailable') {
    const detail = gas?.detail ?? 'the Sui adapter sizes no gas';
    return blockedTopUp([blocker('rpc_unavailable', { details: { chain: 'sui', detail } })]);
  }
  if (gas.status === 'reverted') {
    const detail = `the top-up leg: ${gas.detail}`;
    return blockedTopUp([blocker('gas_estimate_unavailable', { details: { detail } })]);
  }
  const own = topUpGas(gas);
  if (nativeHeld < own.budget) {
    const why = `the wallet holds ${nativeHeld} mist, less than the top-up's own gas budget ${own.budget}: it could not send it`;
    return blockedTopUp([blocker('gas_estimate_unavailable', { details: { detail: why } })]);
  }
  const target = nativeNeeded + own.burnt;
  if (sale.answer.minAmountOutMicros < target) {
    sale = await sizeExactInSale({ ...sized, needed: target, from: sale });
    if (sale.status !== 'ok') return blockedTopUp(sale.blockers);
    leg = await legOf(sale.sell, sale.answer);
  }
  const { sell, answer } = sale;
  return {
    status: 'prepared',
    build: { status: 'prepared', legs: [leg] },
    grossMicros: sell,
    quote: answer,
    swap: topUpSwap({
      tokens: { input: usdc, output: sui },
      grossMicros: sell,
      quote: answer,
      swapTarget: answer.packageId,
      schedule,
      feeRecipient: recipient,
    }),
  };
}
