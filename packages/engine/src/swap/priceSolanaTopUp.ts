import { computeGasSponsorFee } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { ChainAdapter, LegBuild } from '@yieldrouter/schemas';
import { formatUnits } from '@yieldrouter/schemas';
import { blocker } from '../plan/blocker';
import type { JupiterConfig } from './jupiterSettings';
import {
  blockedTopUp,
  feeRecipientBlockers,
  sizeExactInSale,
  topUpQuoteFor,
  topUpSwap,
} from './nativeTopUp';
import type { NativeTopUp } from './nativeTopUp';
import type { SolanaSwapQuote, SwapQuoteSource } from './swapQuoteSource';

/** Wrapped SOL's mint: what the top-up buys, then unwraps into SOL. */
export const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112';

export interface PriceSolanaTopUpParameters {
  readonly owner: string;
  readonly planId: string;
  /** Lamports the wallet lacks. */
  readonly nativeNeeded: bigint;
  readonly adapter: ChainAdapter;
  readonly jupiter: JupiterConfig;
  /** The Solana quote source (Jupiter); undefined when none is configured. */
  readonly source: SwapQuoteSource<SolanaSwapQuote> | undefined;
  readonly schedule: FeeSchedule;
}

export type PriceSolanaTopUpReturnType = NativeTopUp;

/**
 * Prices `nativeNeeded` lamports in USDC through Jupiter (USDC → wrapped SOL, ExactIn, sized by
 * probe then scale: `sizeExactInSale`) and builds the top-up legs: the swap leg — the service's
 * gas-sponsor fee (`computeGasSponsorFee` of the sale) transferred in USDC in the same
 * transaction, then Jupiter's instructions, as a Solana swap plan's leg — and the unwrap leg,
 * which closes the owner's wrapped SOL account to the owner (all of it becomes SOL: at least
 * `nativeNeeded`, plus the account's rent back).
 *
 * Blocked: no Jupiter source or no wrapped SOL / USDC token (`quote_source_not_configured`,
 * `SVC_JUPITER_BASE_URL`), no fee recipient while the fee is charged
 * (`SVC_SOLANA_SWAP_FEE_RECIPIENT`), the source down, slow, answering garbage or no route, a
 * sale whose minimum stays short, the chain unreadable (blockhash, lookup tables).
 */
export async function priceSolanaTopUp(
  parameters: PriceSolanaTopUpParameters,
): Promise<PriceSolanaTopUpReturnType> {
  const { owner, planId, nativeNeeded, adapter, jupiter, source, schedule } = parameters;
  const usdc = jupiter.tokens.find((token) => token.symbol === 'USDC');
  const wrapped = jupiter.tokens.find((token) => token.address === WRAPPED_SOL_MINT);
  const recipient = jupiter.feeRecipient;
  if (!source || !source.chains.includes('solana') || !usdc || !wrapped) {
    return blockedTopUp([
      blocker('quote_source_not_configured', { field: 'SVC_JUPITER_BASE_URL' }),
    ]);
  }
  const unpaid = feeRecipientBlockers(recipient, schedule, 'SVC_SOLANA_SWAP_FEE_RECIPIENT');
  if (unpaid.length > 0) return blockedTopUp(unpaid);
  const sized = await sizeExactInSale({
    source: source.name,
    needed: nativeNeeded,
    unit: 'lamports',
    quoteFor: topUpQuoteFor(source, {
      chain: 'solana',
      input: usdc,
      output: wrapped,
      owner,
      recipient,
      schedule,
    }),
  });
  if (sized.status === 'blocked') return blockedTopUp(sized.blockers);
  const { sell: sellMicros, answer: quote } = sized;
  if (!adapter.buildSolanaSwap || !adapter.buildSolanaUnwrap) {
    const detail = 'no Solana swap or unwrap builder';
    return blockedTopUp([blocker('rpc_unavailable', { details: { chain: 'solana', detail } })]);
  }
  const fee = computeGasSponsorFee({ grossMicros: sellMicros, schedule }).feeMicros;
  const shownIn = `${formatUnits(sellMicros, usdc.decimals)} USDC`;
  const shownOut = `${formatUnits(nativeNeeded, wrapped.decimals)} SOL`;
  const builds: LegBuild[] = [
    await adapter.buildSolanaSwap({
      planId,
      owner,
      amountInMicros: sellMicros,
      instructions: quote.instructions,
      serviceFee:
        fee > 0n && recipient
          ? { recipient, mint: usdc.address, decimals: usdc.decimals, amountMicros: fee }
          : null,
      summary: `Swap ${shownIn} for at least ${shownOut} of wrapped SOL on solana via ${quote.source} (gas top-up; gas-sponsor fee ${formatUnits(fee, usdc.decimals)} USDC in the same transaction)`,
    }),
    await adapter.buildSolanaUnwrap({
      planId,
      owner,
      wrappedNative: wrapped.address,
      amount: nativeNeeded,
      summary: `Unwrap the wrapped SOL (at least ${shownOut}) into native gas on solana`,
    }),
  ];
  const blockers = builds.flatMap((build) => (build.status === 'blocked' ? build.blockers : []));
  if (blockers.length > 0) return blockedTopUp(blockers);
  return {
    status: 'prepared',
    build: {
      status: 'prepared',
      legs: builds.flatMap((build) => (build.status === 'prepared' ? build.legs : [])),
    },
    grossMicros: sellMicros,
    quote,
    swap: topUpSwap({
      tokens: { input: usdc, output: wrapped },
      grossMicros: sellMicros,
      quote,
      swapTarget: quote.swapProgram,
      schedule,
      feeRecipient: recipient,
    }),
  };
}
