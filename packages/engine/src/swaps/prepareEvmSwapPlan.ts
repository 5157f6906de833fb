import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { PrismaClient } from '@yieldrouter/ledger';
import type { EvmSwapPlanRequest, LegBuild, SwapPlanDocument } from '@yieldrouter/schemas';
import { formatUnits, newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { blocker } from '../plans/blocker';
import { storeSwapPlan } from './storeSwapPlan';
import type { SwapsConfig } from './swapSettings';
import type { SwapQuoteSource } from './swapQuoteSource';
import { priceSwap, sourceBlocker, swapSlippageBps, swapTokens } from './swapPlanParts';

export interface PrepareEvmSwapPlanParameters {
  readonly db: PrismaClient;
  readonly adapters: ChainAdapters;
  readonly swaps: SwapsConfig;
  /** The quote source for EVM chains; undefined when none is configured. */
  readonly source: SwapQuoteSource | undefined;
  /** The request as parsed (amount as bigint). */
  readonly request: Omit<EvmSwapPlanRequest, 'amountInMicros'> & {
    readonly amountInMicros: bigint;
  };
  readonly schedule?: FeeSchedule;
  readonly now: Date;
}

/** A quote source's unavailability as a plan blocker (the source named, nothing priced). */
export const quoteBlocker = (
  status: 'quote_unavailable' | 'quote_timeout' | 'no_route',
  detail: string,
) => sourceBlocker('0x', status, detail);

/**
 * Prepares (or blocks) a swap on Base or Arbitrum priced by the quote source, and stores it.
 *
 * Refused (EngineError BAD_REQUEST naming the field, nothing stored): an unknown token, the same
 * token both ways, an owner that is not an EVM address, a slippage outside 0..max. Blocked
 * (stored, HTTP 200): no source or fee recipient configured, the source unavailable, slow, or
 * answering garbage, no route, a quote that breaks the slippage bound, an unreadable allowance.
 * Prepared: fee lines (the service fee from the schedule on the input; the pool fee the source
 * reported), the quoted and minimum amounts out, and the legs — an approval when the allowance
 * read on chain is short, then the quote's call.
 */
export async function prepareEvmSwapPlan(
  parameters: PrepareEvmSwapPlanParameters,
): Promise<SwapPlanDocument> {
  const { db, adapters, swaps, source, request, now } = parameters;
  const schedule = parameters.schedule ?? defaultFeeSchedule;
  const chain = request.chain;
  const adapter = adapters[chain];
  const tokens = swaps.tokens[chain];
  const { input, output } = swapTokens(tokens, request, chain);
  const owner = adapter.normalizeAddress(request.owner);
  if (!owner) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.owner: not an address on ${chain} (0x + 40 hex, EIP-55 if mixed case)`,
      'body.owner',
    );
  }
  const slippageBps = swapSlippageBps(request.slippageBps, schedule);
  const amountIn = request.amountInMicros;
  const planId = newPlanId();
  const feeRecipient = swaps.feeRecipients[chain];
  const {
    blockers,
    serviceFee,
    priced: quoted,
  } = await priceSwap({
    source,
    sourceSetting: 'SVC_ZEROX_BASE_URL',
    feeRecipient,
    feeRecipientSetting: `SVC_${chain.toUpperCase()}_SWAP_FEE_RECIPIENT`,
    request: {
      chain,
      inputToken: input,
      outputToken: output,
      amountInMicros: amountIn,
      slippageBps,
      taker: owner,
    },
    schedule,
  });
  const { quote, fees } = quoted ?? {};

  let build: LegBuild = { status: 'blocked', blockers };
  if (blockers.length === 0 && quote && fees) {
    const allowance = adapter.readAllowance
      ? await adapter.readAllowance({ token: input.address, owner, spender: quote.allowanceTarget })
      : undefined;
    if (!allowance || allowance.status !== 'ok' || !adapter.buildSwap) {
      build = {
        status: 'blocked',
        blockers: [
          blocker('rpc_unavailable', {
            details: {
              chain,
              detail:
                allowance?.status === 'unavailable' ? allowance.detail : 'no allowance reader',
            },
          }),
        ],
      };
    } else {
      const shownIn = `${formatUnits(amountIn, input.decimals)} ${input.symbol}`;
      const shownOut = `${formatUnits(fees.minAmountOutMicros, output.decimals)} ${output.symbol}`;
      build = {
        status: 'prepared',
        legs: adapter.buildSwap({
          planId,
          owner,
          inputToken: input.address,
          amountInMicros: amountIn,
          allowance: allowance.allowance,
          spender: quote.allowanceTarget,
          call: { to: quote.transaction.to, data: quote.transaction.data },
          summaries: {
            approve: `Approve ${quote.allowanceTarget} to take ${shownIn} on ${chain} (0x allowance target)`,
            swap: `Swap ${shownIn} for at least ${shownOut} on ${chain} via ${quote.source}`,
          },
        }),
      };
    }
  }

  const priced = build.status === 'prepared' && quote && fees ? { quote, fees } : undefined;
  return storeSwapPlan(db, {
    planId,
    chain,
    owner,
    input,
    output,
    amountInMicros: amountIn,
    slippageBps,
    serviceFeeMicros: serviceFee.amountMicros,
    build,
    priced,
    feeRecipient: serviceFee.bps > 0 ? (feeRecipient ?? null) : null,
    swapTarget: priced?.quote.transaction.to,
    now,
  });
}
