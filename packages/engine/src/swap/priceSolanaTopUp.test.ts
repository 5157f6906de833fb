import { defaultFeeSchedule } from '@yieldrouter/fees';
import { NATIVE_USDC, newPlanId } from '@yieldrouter/schemas';
import type {
  ChainAdapter,
  LegBuild,
  SolanaSwapLegRequest,
  UnwrapLegRequest,
} from '@yieldrouter/schemas';
import { parseJupiterSettings } from './jupiterSettings';
import { WRAPPED_SOL_MINT, priceSolanaTopUp } from './priceSolanaTopUp';
import type { PriceSolanaTopUpParameters } from './priceSolanaTopUp';
import type {
  SolanaSwapQuote,
  SwapQuoteRequest,
  SwapQuoteSource,
  SwapQuoteUnavailable,
} from './swapQuoteSource';

// The Solana top-up's own decisions, with a source that answers what each test needs: the sale
// sized by probe then scale, the gas-sponsor fee passed to the swap leg, every refusal blocked.
const OWNER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const RECIPIENT = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const PROGRAM = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';
const jupiter = () =>
  parseJupiterSettings(
    {
      SVC_JUPITER_BASE_URL: 'https://jupiter.invalid/swap/v1',
      SVC_JUPITER_TIMEOUT_MS: 1_000,
      SVC_JUPITER_PROGRAM_ID: PROGRAM,
      SVC_SOLANA_SWAP_FEE_RECIPIENT: RECIPIENT,
    },
    NATIVE_USDC.solana,
  );

/** 100 USDC per SOL, 1% below for the minimum. */
const quoteAt = (request: SwapQuoteRequest): SolanaSwapQuote => {
  const out = (request.amountInMicros - request.serviceFee.amountMicros) * 10n;
  return {
    status: 'ok',
    family: 'solana',
    source: 'jupiter',
    amountOutMicros: out,
    minAmountOutMicros: (out * 99n) / 100n,
    poolFee: null,
    route: ['Pool'],
    priceImpactBps: null,
    expiresAt: new Date('2026-11-27T06:00:00Z'),
    instructions: {
      computeBudget: [],
      setup: [],
      swap: { programId: PROGRAM, accounts: [], data: '' },
      cleanup: [],
      addressLookupTables: [],
    },
    swapProgram: PROGRAM,
  };
};
const sourceOf = (
  answer: (request: SwapQuoteRequest) => SolanaSwapQuote | SwapQuoteUnavailable,
): SwapQuoteSource<SolanaSwapQuote> & { asked: SwapQuoteRequest[] } => {
  const asked: SwapQuoteRequest[] = [];
  return {
    name: 'jupiter',
    chains: ['solana'],
    asked,
    quote: async (request) => {
      asked.push(request);
      return answer(request);
    },
  };
};

const leg = (action: 'swap' | 'unwrap', amountMicros: bigint): LegBuild => ({
  status: 'prepared',
  legs: [
    {
      chain: 'solana',
      action,
      summary: action,
      planId: 'plan',
      amountMicros,
      settles: true,
      payload: { encoding: 'solana-v0-base64', transaction: 'AA==', lastValidBlockHeight: '1' },
    },
  ],
});
const built: { swap?: SolanaSwapLegRequest; unwrap?: UnwrapLegRequest } = {};
const adapter = {
  buildSolanaSwap: async (request: SolanaSwapLegRequest) => {
    built.swap = request;
    return leg('swap', request.amountInMicros);
  },
  buildSolanaUnwrap: async (request: UnwrapLegRequest) => {
    built.unwrap = request;
    return leg('unwrap', request.amount);
  },
} as unknown as ChainAdapter;

const price = (overrides: Partial<PriceSolanaTopUpParameters>) =>
  priceSolanaTopUp({
    owner: OWNER,
    planId: newPlanId(),
    nativeNeeded: 1_044_280n,
    adapter,
    jupiter: jupiter(),
    source: sourceOf(quoteAt),
    schedule: defaultFeeSchedule,
    ...overrides,
  });

const codes = (build: LegBuild) =>
  build.status === 'blocked' ? build.blockers.map((entry) => [entry.code, entry.field]) : [];

describe('priceSolanaTopUp', () => {
  it('sells what covers the lamports (probe, then scale), fee in the swap leg, then unwraps', async () => {
    const source = sourceOf(quoteAt);
    const priced = await price({ source });
    if (priced.status !== 'prepared') throw new Error(JSON.stringify(priced.build));
    expect(source.asked.map((request) => request.amountInMicros)[0]).toBe(1_000_000n);
    expect(source.asked.every((request) => request.outputToken.address === WRAPPED_SOL_MINT)).toBe(
      true,
    );
    expect(priced.quote.minAmountOutMicros >= 1_044_280n).toBe(true);
    const fee = (priced.grossMicros * 50n) / 10_000n;
    expect(built.swap).toMatchObject({
      amountInMicros: priced.grossMicros,
      serviceFee: { recipient: RECIPIENT, mint: NATIVE_USDC.solana, amountMicros: fee },
    });
    expect(built.unwrap).toMatchObject({ wrappedNative: WRAPPED_SOL_MINT, amount: 1_044_280n });
    expect(priced.swap.swapTarget).toBe(PROGRAM);
    expect(priced.build.status === 'prepared' && priced.build.legs.map((l) => l.action)).toEqual([
      'swap',
      'unwrap',
    ]);
  });

  it('no Jupiter source: blocked naming SVC_JUPITER_BASE_URL, nothing asked', async () => {
    const priced = await price({ source: undefined });
    expect(codes(priced.build)).toEqual([['quote_source_not_configured', 'SVC_JUPITER_BASE_URL']]);
  });

  it('no fee recipient while the fee is charged: blocked naming the setting', async () => {
    const source = sourceOf(quoteAt);
    const priced = await price({ jupiter: { ...jupiter(), feeRecipient: undefined }, source });
    expect(codes(priced.build)).toEqual([
      ['quote_source_not_configured', 'SVC_SOLANA_SWAP_FEE_RECIPIENT'],
    ]);
    expect(source.asked).toEqual([]);
  });

  it.each(['quote_unavailable', 'quote_timeout', 'no_route'] as const)(
    'the source answering %s blocks the top-up with that code',
    async (status) => {
      const priced = await price({ source: sourceOf(() => ({ status, detail: 'down' })) });
      expect(codes(priced.build)).toEqual([[status, undefined]]);
    },
  );

  it('a minimum that stays short of the lamports blocks it (quote_unavailable)', async () => {
    const priced = await price({
      source: sourceOf((request) => ({ ...quoteAt(request), minAmountOutMicros: 1n })),
    });
    expect(codes(priced.build)).toEqual([['quote_unavailable', undefined]]);
  });

  it('a chain it cannot read (no blockhash) blocks it with the builder’s reason', async () => {
    const down = {
      ...adapter,
      buildSolanaUnwrap: async () => ({
        status: 'blocked',
        blockers: [{ code: 'rpc_unavailable', message: 'Solana: no Solana RPC is configured' }],
      }),
    } as unknown as ChainAdapter;
    const priced = await price({ adapter: down });
    expect(codes(priced.build)).toEqual([['rpc_unavailable', undefined]]);
  });
});
