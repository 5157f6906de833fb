import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { insertPlan } from '@yieldrouter/ledger';
import type { PrismaClient } from '@yieldrouter/ledger';
import type { EvmSwapPlanRequest, SwapPlanDocument } from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { planDocument, planRecord } from '../plans/planDocument';
import type { SwapsConfig } from './swapSettings';
import type { SwapQuoteSource } from './swapQuoteSource';
import { findSwapToken, prepareSwapLegs, storedSwapParts } from './priceSwap';
import { swapDocumentParts, swapSlippageBps } from './priceSwap';

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
  const input = findSwapToken(tokens, request.inputToken, 'body.inputToken', chain);
  const output = findSwapToken(tokens, request.outputToken, 'body.outputToken', chain);
  if (input.address.toLowerCase() === output.address.toLowerCase()) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.outputToken: must differ from inputToken (both are ${input.symbol})`,
      'body.outputToken',
    );
  }
  const owner = adapter.normalizeAddress(request.owner);
  if (!owner) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.owner: not an address on ${chain} (0x + 40 hex, EIP-55 if mixed case)`,
      'body.owner',
    );
  }
  const slippageBps = swapSlippageBps(request.slippageBps, schedule, 'body.slippageBps');
  const amountIn = request.amountInMicros;
  const planId = newPlanId();
  const feeRecipient = swaps.feeRecipients[chain];
  const { pricing, build } = await prepareSwapLegs({
    adapter,
    planId,
    chain,
    source,
    sourceSetting: 'SVC_ZEROX_BASE_URL',
    input,
    output,
    amountInMicros: amountIn,
    slippageBps,
    owner,
    feeRecipient,
    schedule,
  });

  const priced = build.status === 'prepared' ? pricing.priced : undefined;
  const swapParts = swapDocumentParts(input, output, amountIn, slippageBps, priced);
  const parts = {
    planId,
    kind: 'swap' as const,
    chain,
    amountMicros: amountIn,
    feeMicros: priced ? priced.fees.feeMicros : pricing.serviceFee.amountMicros,
    build,
    disclosure: { owner, ...swapParts },
    createdAt: now,
  };
  await insertPlan(
    db,
    planRecord(parts, {
      venueId: null,
      owner,
      wallet: owner,
      request: {
        chain,
        owner,
        inputToken: input.symbol,
        outputToken: output.symbol,
        amountInMicros: formatMicros(amountIn),
        slippageBps,
      },
      // The swap leg settles from its receipt: the amount out from the Transfer logs.
      effect: 'swap',
      swap: storedSwapParts(
        swapParts,
        { ...pricing, input, output },
        feeRecipient,
        build.status === 'prepared',
      ),
    }),
  );
  return planDocument(parts);
}
