import { computeGasSponsorFee, defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import { findPlan } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
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
import { blocker } from '../plan/blocker';
import { planDocument, planRecord, withUnwrapLegs } from '../plan/planDocument';
import { storePlan } from '../plan/storePlan';
import { withSimulation } from '../simulation/simulatePlan';
import type { CetusConfig } from './cetusSettings';
import type { JupiterConfig } from './jupiterSettings';
import type { NativeTopUp } from './nativeTopUp';
import { priceNativeTopUp } from './priceNativeTopUp';
import { priceSolanaTopUp } from './priceSolanaTopUp';
import { priceSuiTopUp } from './priceSuiTopUp';
import type { SuiSwapQuote } from './suiSwapQuote';
import type { SwapsConfig } from './swapSettings';
import type { SolanaSwapQuote, SwapQuoteSource } from './swapQuoteSource';

export interface PrepareGasSponsorPlanParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly swaps: SwapsConfig;
  /** The EVM quote source (0x); undefined when none is configured. */
  readonly source: SwapQuoteSource | undefined;
  /** Sui: the Cetus settings and quote source (undefined: Sui top-ups are blocked). */
  readonly cetus?: CetusConfig;
  readonly suiSource?: SwapQuoteSource<SuiSwapQuote> | undefined;
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
 * What to size: the request's own EVM calls, or a stored plan's unsigned legs — EVM calls, Sui
 * payloads, or Solana v0 transactions (base64).
 */
async function sizingQuery(
  db: Books,
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
  const unsigned = stored.legs
    .filter((leg) => leg.status === 'unsigned')
    .map((leg) => leg.payload as { encoding?: unknown; transaction?: unknown } | null);
  if (request.chain === 'solana') {
    const transactions = unsigned.flatMap((payload) =>
      payload?.encoding === 'solana-v0-base64' && typeof payload.transaction === 'string'
        ? [payload.transaction]
        : [],
    );
    return { owner, transactions };
  }
  if (request.chain === 'sui') {
    const payloads = unsigned.flatMap((payload) =>
      typeof payload?.encoding === 'string' && payload.encoding.startsWith('sui-')
        ? [{ encoding: payload.encoding, transaction: payload.transaction }]
        : [],
    );
    return { owner, payloads };
  }
  const calls = unsigned.flatMap((payload) => {
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
 * Prepares (or blocks) a gas-sponsor plan, and stores it: the native gas `owner` needs for a
 * stored plan's unsigned legs (or inline EVM calls), less what the wallet holds, priced in USDC
 * through the chain's quote source, with the service fee line (gasSponsorFeeBps, rounded down)
 * and the owner-signed top-up legs. Per family, a sizing (`adapter.sizeGas`) and a pricing
 * function: EVM — eth_estimateGas × fee data, 0x (approve when short, swap USDC → wrapped native,
 * unwrap; `priceNativeTopUp`); Sui — each leg's dry-run gas budget, Cetus (one swap USDC → SUI
 * with the fee split off in the same transaction; `priceSuiTopUp`); Solana — each leg's fee for
 * its message plus the rent of the token accounts its legs create, Jupiter (the swap with the fee
 * transfer in it, then the close of the wrapped SOL account; `priceSolanaTopUp`). The swap and
 * unwrap legs settle from their receipts into the owner's books, per asset.
 *
 * Refused (EngineError BAD_REQUEST naming the field, nothing stored): an owner not in the chain's
 * format, an unknown planId or one on another chain, calls on a non-EVM chain. Blocked (stored):
 * the chain unreadable, a leg that reverts (or
 * whose dry run fails), no quote source or fee recipient, the source down, slow or answering
 * garbage.
 */
export async function prepareGasSponsorPlan(
  parameters: PrepareGasSponsorPlanParameters,
): Promise<GasSponsorPlanDocument> {
  const { db, adapters, swaps, source, request, now } = parameters;
  const schedule = parameters.schedule ?? defaultFeeSchedule;
  const chain = request.chain;
  const adapter = adapters[chain];
  const owner = adapter.normalizeAddress(request.owner);
  if (!owner) throw bad('body.owner', `not an address on ${chain}`);
  const evm = chain === 'base' || chain === 'arbitrum';
  const query = await sizingQuery(db, request, owner, evm);
  const legCount =
    (query.calls?.length ?? 0) + (query.payloads?.length ?? 0) + (query.transactions?.length ?? 0);
  const planId = newPlanId();

  const blockers: Blocker[] = [];
  const sizing = adapter.sizeGas && legCount > 0 ? await adapter.sizeGas(query) : undefined;
  if (!adapter.sizeGas) {
    blockers.push(
      blocker('gas_estimate_unavailable', {
        details: { chain, detail: `no gas sizing for ${chain}` },
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
  let priced: NativeTopUp | undefined;
  if (blockers.length === 0 && nativeNeeded === 0n) build = { status: 'prepared', legs: [] };
  if (blockers.length === 0 && nativeNeeded && sized) {
    // Per family: Sui buys SUI through Cetus (one leg); Solana wrapped SOL through Jupiter, then
    // unwraps it; EVM wrapped native through 0x, then unwraps it.
    priced =
      chain === 'solana'
        ? await priceSolanaTopUp({
            owner,
            planId,
            nativeNeeded,
            adapter,
            jupiter: parameters.solana?.jupiter ?? {
              source: undefined,
              feeRecipient: undefined,
              tokens: [],
            },
            source: parameters.solana?.source,
            schedule,
          })
        : chain === 'sui'
          ? await priceSuiTopUp({
              owner,
              planId,
              nativeNeeded,
              nativeHeld: sized.nativeHeld,
              adapter,
              cetus: parameters.cetus,
              source: parameters.suiSource,
              schedule,
            })
          : evm
            ? await priceNativeTopUp({
                chain,
                owner,
                planId,
                nativeNeeded,
                adapter,
                swaps,
                source,
                schedule,
              })
            : undefined;
    if (priced) build = priced.build;
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
    // The top-up settles in the owner's books: USDC out of liquid, the fee to fees:protocol, the
    // wrapped native in then the native (EVM, Solana), or SUI in straight from the swap (Sui).
    // (swapBooking).
    wallet: owner,
    request: {
      chain,
      owner,
      ...(request.planId ? { planId: request.planId } : {}),
      ...(request.calls && query.calls
        ? { calls: query.calls.map((call) => ({ ...call, value: call.value.toString() })) }
        : {}),
    },
    effect: 'swap',
    ...(quote && build.status === 'prepared' ? { swap: quote.swap } : {}),
  });
  // Issue 44: the legs (swap, unwrap) simulated on their chain, stored with the plan and shown
  // in its answer; the contracts they call (the swap's target, the wrapped native) are its
  // venues, so the approval's spender must be one of them.
  const { plan, document } = await withSimulation(
    adapters,
    {
      plan: withUnwrapLegs(record),
      document: planDocument(parts) as GasSponsorPlanDocument,
    },
    { venue: [], treasury: [] },
  );
  await storePlan(parameters, plan);
  return document;
}
