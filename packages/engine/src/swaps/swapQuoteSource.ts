import type { Chain } from '@yieldrouter/schemas';

/** A token a swap names, as the service knows it on one chain. */
export interface SwapToken {
  readonly symbol: string;
  /** The chain's own id of the token (an EVM address). */
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

/** A firm quote: what the owner gets, what the source keeps, and the call that does it. */
export interface SwapQuote {
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
  /** EVM: the call the owner signs, and the contract the input must be allowed to. */
  readonly transaction: { readonly to: string; readonly data: string; readonly value: bigint };
  readonly allowanceTarget: string;
  /**
   * What the source read the taker allows `allowanceTarget` to take of the input, when it
   * reports it (0x: `issues.allowance`, null when it covers the amount in); absent, the plan
   * reads it on chain.
   */
  readonly takerAllowance?: bigint;
}

/** Why there is no quote: the plan is blocked with this code, never given a made-up price. */
export interface SwapQuoteUnavailable {
  readonly status: 'quote_unavailable' | 'quote_timeout' | 'no_route';
  readonly detail: string;
}

/** One place swap prices come from (0x on EVM chains; Jupiter and Cetus later). */
export interface SwapQuoteSource {
  readonly name: string;
  readonly chains: readonly Chain[];
  quote(request: SwapQuoteRequest): Promise<SwapQuote | SwapQuoteUnavailable>;
}
