import type { Chain, SolanaSwapInstructions } from '@yieldrouter/schemas';
import type { SuiSwapQuote } from './suiSwapQuote';

/** A token a swap names, as the service knows it on one chain. */
export interface SwapToken {
  readonly symbol: string;
  /** The chain's own id of the token (an EVM address, a Solana mint, a Sui coin type). */
  readonly address: string;
  readonly decimals: number;
}

export interface SwapQuoteRequest {
  readonly chain: Chain;
  readonly inputToken: SwapToken;
  readonly outputToken: SwapToken;
  readonly amountInMicros: bigint;
  readonly slippageBps: number;
  /** The owner's wallet: it holds the input, signs, and receives the output. */
  readonly taker: string;
  /** The service's swap fee, taken from the input by the swap transaction itself. */
  readonly serviceFee: {
    readonly bps: number;
    readonly amountMicros: bigint;
    /** Where the fee is paid (the chain's configured recipient). */
    readonly recipient: string;
  };
}

/** What every firm quote says: what the owner gets and what the source keeps. */
export interface SwapQuoteFacts {
  readonly status: 'ok';
  readonly source: string;
  /** What the owner receives (net of every fee), in the output token's base units. */
  readonly amountOutMicros: bigint;
  /** The least the quote's transaction lets through (the source's own bound). */
  readonly minAmountOutMicros: bigint;
  /** The fee the source reports it keeps (pool / DEX fee), and the side it is charged in. */
  readonly poolFee: { readonly amountMicros: bigint; readonly side: 'input' | 'output' } | null;
  /** Liquidity sources the fill goes through, in order (for people). */
  readonly route: readonly string[];
  /** Null when the source reports none. */
  readonly priceImpactBps: number | null;
  readonly expiresAt: Date;
}

/** A firm EVM quote: the call the owner signs, and the contract the input must be allowed to. */
export interface EvmSwapQuote extends SwapQuoteFacts {
  readonly family: 'evm';
  readonly transaction: { readonly to: string; readonly data: string; readonly value: bigint };
  readonly allowanceTarget: string;
  /**
   * What the source read the taker allows `allowanceTarget` to take of the input, when it
   * reports it (0x: `issues.allowance`, null when it covers the amount in); absent, the plan
   * reads it on chain.
   */
  readonly takerAllowance?: bigint;
}

/**
 * A firm Solana quote: the instructions of the swap (the source's, checked), compiled into the
 * owner's v0 transaction with the service fee transfer and the plan memo. The swap sells
 * `amountInMicros − serviceFee.amountMicros`; the fee is its own transfer in the same transaction.
 */
export interface SolanaSwapQuote extends SwapQuoteFacts {
  readonly family: 'solana';
  readonly instructions: SolanaSwapInstructions;
  /** The program the swap instruction calls: the receipt proves the transaction ran it. */
  readonly swapProgram: string;
}

/** A firm quote of any chain family. */
export type SwapQuote = EvmSwapQuote | SolanaSwapQuote | SuiSwapQuote;

/**
 * What a quote's swap leg calls, as its receipt must show it: the EVM call's contract, the
 * Solana swap program, the Sui aggregator package.
 */
export function swapTargetOf(quote: SwapQuote): string {
  switch (quote.family) {
    case 'evm':
      return quote.transaction.to;
    case 'solana':
      return quote.swapProgram;
    case 'sui':
      return quote.packageId;
  }
}

/**
 * The contracts a quote's legs give the owner's input to: the target it calls and, on EVM, the
 * spender it is approved to (the same contract for 0x's AllowanceHolder). Its plan's venues in a
 * simulation (issue 44): an approval to any other spender is a finding.
 */
export function swapVenuesOf(quote: SwapQuote): string[] {
  const target = swapTargetOf(quote);
  return quote.family === 'evm' && quote.allowanceTarget !== target
    ? [target, quote.allowanceTarget]
    : [target];
}

/** Why there is no quote: the plan is blocked with this code, never given a made-up price. */
export interface SwapQuoteUnavailable {
  readonly status: 'quote_unavailable' | 'quote_timeout' | 'no_route';
  readonly detail: string;
}

/** One place swap prices come from (0x on EVM chains, Jupiter on Solana, Cetus on Sui). */
export interface SwapQuoteSource<Quote extends SwapQuote = EvmSwapQuote> {
  readonly name: string;
  readonly chains: readonly Chain[];
  quote(request: SwapQuoteRequest): Promise<Quote | SwapQuoteUnavailable>;
}
