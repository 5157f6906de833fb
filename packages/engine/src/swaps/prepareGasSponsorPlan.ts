import { computeGasSponsorFee, defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { findPlan, insertPlan } from '@yieldrouter/ledger';
import type { PrismaClient } from '@yieldrouter/ledger';
import type {
  Blocker,
  GasSizingQuery,
  GasSponsorPlanDocument,
  GasSponsorRequest,
  LegBuild,
} from '@yieldrouter/schemas';
import { formatMicros, isPlanId, newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { blocker } from '../plans/blocker';
import { planDocument, planRecord } from '../plans/planDocument';
import type { JupiterConfig } from './jupiterSettings';
import { priceNativeTopUp } from './priceNativeTopUp';
import { priceSolanaTopUp } from './priceSolanaTopUp';
import type { PricedTopUp } from './sizeTopUpSale';
import type { SwapsConfig } from './swapSettings';
import type { SolanaSwapQuote, SwapQuoteSource } from './swapQuoteSource';

export interface PrepareGasSponsorPlanParameters {
  readonly db: PrismaClient;
  readonly adapters: ChainAdapters;
  readonly swaps: SwapsConfig;
  /** The EVM quote source (0x); undefined when none is configured. */
  readonly source: SwapQuoteSource | undefined;
  /** Solana top-ups: the Jupiter configuration and source (undefined: none configured). */
  readonly solana?: {
    readonly jupiter: JupiterConfig;
    readonly source: SwapQuoteSource<SolanaSwapQuote> | undefined;
  };
  readonly request: GasSponsorRequest;
  readonly schedule?: FeeSchedule;
  readonly now: Date;
}

const bad = (field: string, message: string) =>
  new EngineError('BAD_REQUEST', `${field}: ${message}`, field);

/**
 * What to size: the request's own EVM calls, or a stored plan's unsigned legs — EVM calls, or
 * Solana v0 transactions (base64).
 */
async function sizingQuery(
  db: PrismaClient,
  request: GasSponsorRequest,
  owner: string,
  evm: boolean,
): Promise<GasSizingQuery> {
  if (request.calls) {
    if (!evm) throw bad('body.calls', `calls are EVM calls; on ${request.chain} name a planId`);
    return { owner, calls: request.calls.map((call) => ({ ...call, value: call.value ?? 0n })) };
  }
  const planId = request.planId ?? '';
  const stored = isPlanId(planId) ? await findPlan(db, planId) : undefined;
  if (!stored) throw bad('body.planId', `no plan ${planId}`);
  if (stored.chain !== request.chain) {
    throw bad('body.planId', `plan ${planId} is on ${stored.chain}, not ${request.chain}`);
  }
  const unsigned = stored.legs.filter((leg) => leg.status === 'unsigned');
  if (request.chain === 'solana') {
    const transactions = unsigned.flatMap((leg) => {
      const payload = leg.payload as { encoding?: unknown; transaction?: unknown } | null;
      return payload?.encoding === 'solana-v0-base64' && typeof payload.transaction === 'string'
        ? [payload.transaction]
        : [];
    });
    return { owner, transactions };
  }
  const calls = unsigned.flatMap((leg) => {
    const payload = leg.payload as { encoding?: unknown; transaction?: unknown } | null;
    const tx = payload?.transaction as { to?: unknown; data?: unknown; value?: unknown };
    return payload?.encoding === 'evm-transaction-request' &&
      typeof tx.to === 'string' &&
      typeof tx.data === 'string'
      ? [{ to: tx.to, data: tx.data, value: BigInt(String(tx.value ?? '0')) }]
      : [];
  });
  return { owner, calls };
}

/**
 * What a priced top-up keeps for its legs' settlement (`plans.swap`, as a swap plan does): the
 * tokens, the quote's amounts and expiry (execute refuses the plan past it), the contract the
 * swap leg calls and where its fee is paid.
 */
function topUpSwap(
  priced: Extract<PricedTopUp, { status: 'prepared' }>,
  grossMicros: bigint,
  schedule: FeeSchedule,
  feeRecipient: string | undefined,
) {
  const { quote, tokens } = priced;
  return {
    inputToken: tokens.input.symbol,
    outputToken: tokens.output.symbol,
    inputTokenAddress: tokens.input.address,
    outputTokenAddress: tokens.output.address,
    amountInMicros: formatMicros(grossMicros),
    quotedAmountOutMicros: formatMicros(quote.amountOutMicros),
    minAmountOutMicros: formatMicros(quote.minAmountOutMicros),
    quoteSource: quote.source,
    expiresAt: quote.expiresAt.toISOString(),
    swapTarget: priced.swapTarget,
    feeRecipient: schedule.gasSponsorFeeBps > 0 ? (feeRecipient ?? null) : null,
  };
}

/**
 * Prepares (or blocks) a gas-sponsor plan, and stores it: the native gas `owner` needs for a
 * stored plan's unsigned legs (or inline EVM calls), less what the wallet holds, priced in USDC
 * through the quote source, with the service fee line (gasSponsorFeeBps, rounded down) and the
 * owner-signed top-up legs (EVM: approve when short, swap USDC → wrapped native, unwrap; Solana:
 * the swap with the fee transfer in it, then the close of the wrapped SOL account). The swap and
 * unwrap legs settle from their receipts into the owner's books, per asset. Solana sizing counts
 * each leg's fee for its message and the rent of the token accounts its legs create.
 *
 * Refused (EngineError BAD_REQUEST naming the field, nothing stored): an owner not in the chain's
 * format, an unknown planId or one on another chain, calls on a non-EVM chain. Blocked (stored):
 * Sui (no sizing nor quote source there yet), the chain unreadable, a leg that
 * reverts, no quote source or fee recipient, the source down, slow or answering garbage.
 */
export async function prepareGasSponsorPlan(
  parameters: PrepareGasSponsorPlanParameters,
): Promise<GasSponsorPlanDocument> {
  const { db, adapters, swaps, source, solana, request, now } = parameters;
  const schedule = parameters.schedule ?? defaultFeeSchedule;
  const chain = request.chain;
  const adapter = adapters[chain];
  const owner = adapter.normalizeAddress(request.owner);
  if (!owner) throw bad('body.owner', `not an address on ${chain}`);
  const evm = chain === 'base' || chain === 'arbitrum';
  const query = await sizingQuery(db, request, owner, evm);
  const legCount = 'calls' in query ? query.calls.length : query.transactions.length;
  const sizes = evm || chain === 'solana';
  const planId = newPlanId();

  const blockers: Blocker[] = [];
  const sizing =
    sizes && adapter.sizeGas && legCount > 0 ? await adapter.sizeGas(query) : undefined;
  if (!sizes) {
    blockers.push(
      blocker('gas_estimate_unavailable', {
        details: { chain, detail: `gas sizing is not built for ${chain} yet` },
      }),
      blocker('quote_source_not_configured', {
        details: { chain, detail: `no swap quote source serves ${chain}` },
      }),
    );
  } else if (legCount === 0) {
    blockers.push(
      blocker('gas_estimate_unavailable', { details: { detail: 'the plan has no unsigned leg' } }),
    );
  } else if (sizing?.status === 'unavailable') {
    blockers.push(blocker('rpc_unavailable', { details: { chain, detail: sizing.detail } }));
  } else if (sizing?.status === 'reverted') {
    blockers.push(blocker('gas_estimate_unavailable', { details: { detail: sizing.detail } }));
  }

  const sized = sizing?.status === 'ok' ? sizing : undefined;
  const nativeNeeded = sized
    ? sized.nativeRequired > sized.nativeHeld
      ? sized.nativeRequired - sized.nativeHeld
      : 0n
    : undefined;
  let build: LegBuild = { status: 'blocked', blockers };
  let priced: PricedTopUp | undefined;
  if (blockers.length === 0 && nativeNeeded === 0n) build = { status: 'prepared', legs: [] };
  if (blockers.length === 0 && nativeNeeded && chain === 'solana') {
    priced = await priceSolanaTopUp({
      owner,
      planId,
      nativeNeeded,
      adapter,
      jupiter: solana?.jupiter ?? { source: undefined, feeRecipient: undefined, tokens: [] },
      source: solana?.source,
      schedule,
    });
    build = priced.build;
  }
  if (blockers.length === 0 && nativeNeeded && (chain === 'base' || chain === 'arbitrum')) {
    priced = await priceNativeTopUp({
      chain,
      owner,
      planId,
      nativeNeeded,
      adapter,
      swaps,
      source,
      schedule,
    });
    build = priced.build;
  }

  const quote = priced?.status === 'prepared' ? priced : undefined;
  const grossMicros = quote?.grossMicros ?? 0n;
  const fee = computeGasSponsorFee({ grossMicros, schedule });
  const disclosure = {
    owner,
    ...(sized
      ? {
          ...(sized.gasUnits === undefined ? {} : { gasUnits: sized.gasUnits.toString() }),
          ...(sized.feePerGas === undefined ? {} : { feePerGas: sized.feePerGas.toString() }),
          ...(sized.solana
            ? {
                legFees: sized.solana.legFees.map((fee) => fee.toString()),
                rentPerAccount: sized.solana.rentPerAccount.toString(),
                accountsCreated: [...sized.solana.accountsCreated],
              }
            : {}),
          nativeRequired: sized.nativeRequired.toString(),
          nativeHeld: sized.nativeHeld.toString(),
          nativeNeeded: (nativeNeeded ?? 0n).toString(),
        }
      : {}),
    ...(build.status === 'prepared' ? { usdcCostMicros: formatMicros(grossMicros) } : {}),
    ...(quote
      ? {
          feeLines: [
            {
              kind: 'gas_sponsor_fee' as const,
              bps: fee.bps,
              amountMicros: formatMicros(fee.feeMicros),
              token: 'USDC',
              payer: 'owner' as const,
            },
            ...(quote.quote.poolFee?.side === 'input'
              ? [
                  {
                    kind: 'pool_fee' as const,
                    amountMicros: formatMicros(quote.quote.poolFee.amountMicros),
                    token: 'USDC',
                    payer: 'owner' as const,
                  },
                ]
              : []),
          ],
          quoteSource: quote.quote.source,
          expiresAt: quote.quote.expiresAt.toISOString(),
        }
      : {}),
  };
  const parts = {
    planId,
    kind: 'gas_sponsor' as const,
    chain,
    amountMicros: grossMicros,
    feeMicros: fee.feeMicros,
    build,
    disclosure,
    createdAt: now,
  };
  const record = planRecord(parts, {
    venueId: null,
    owner,
    // The top-up settles in the owner's books: USDC out of liquid, the wrapped native in, then
    // the native (swapBooking).
    wallet: owner,
    request: {
      chain,
      owner,
      ...(request.planId ? { planId: request.planId } : {}),
      ...(request.calls && 'calls' in query
        ? { calls: query.calls.map((call) => ({ ...call, value: call.value.toString() })) }
        : {}),
    },
    effect: 'swap',
    ...(quote && build.status === 'prepared'
      ? {
          swap: topUpSwap(
            quote,
            grossMicros,
            schedule,
            evm ? swaps.feeRecipients[chain] : solana?.jupiter.feeRecipient,
          ),
        }
      : {}),
  });
  await insertPlan(db, {
    ...record,
    legs: record.legs.map((leg) =>
      leg.action === 'unwrap' && leg.settles ? { ...leg, effect: 'unwrap' as const } : leg,
    ),
  });
  return planDocument(parts);
}
