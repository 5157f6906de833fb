import fc from 'fast-check';
import { minAmountOut } from '@yieldrouter/fees';
import { createCetusQuoteSource } from './createCetusQuoteSource';
import type { CetusQuoteContext } from './readCetusQuote';
import { readCetusQuote } from './readCetusQuote';
import type { SwapQuoteRequest } from './swapQuoteSource';

// Cetus find-routes answers in the aggregator's shape (`{ code, msg, data }`, u64 amounts as JSON
// numbers, `fee_rate` and `deviation_ratio` as decimal strings), read against what was asked.
const SUI = `0x${'0'.repeat(63)}2::sui::SUI`;
const USDC = '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC';
const CETUS = '0x06864a6f921804860930db6ddbe2e16acdf8504495ea7481637a1c8b9a8fe54b::cetus::CETUS';
const POOL_1 = '0xb8d7d9e66a60c239e7a60110efcf8de6c705580ed924d0dde141f4a0e2c90105';
const POOL_2 = '0x51e883ba7c0b566a26cbc8a94cd33eb0abd418a77cc1e60ad22fd9b1f29cd2ab';
const PACKAGE = `0x${'ce'.repeat(32)}`;
const CONFIG = `0x${'cf'.repeat(32)}`;

const request: SwapQuoteRequest = {
  chain: 'sui',
  inputToken: { symbol: 'SUI', address: SUI, decimals: 9 },
  outputToken: { symbol: 'USDC', address: USDC, decimals: 6 },
  amountInMicros: 1_001_000_000n,
  slippageBps: 100,
  taker: `0x${'11'.repeat(32)}`,
  serviceFee: { bps: 10, amountMicros: 1_000_000n, recipient: `0x${'9a'.repeat(32)}` },
};
const context: CetusQuoteContext = {
  request,
  netAmountInMicros: 1_000_000_000n,
  packageId: PACKAGE,
  globalConfigId: CONFIG,
  expiresAt: new Date('2026-11-27T12:00:30Z'),
};

/** A find_routes answer for 1 SUI → USDC through one Cetus pool, as the aggregator prints it. */
const recorded = {
  code: 200,
  msg: 'Success',
  data: {
    request_id: '5f0c6f55-3f8e-4a0b-9f3b-6c1f1c9c2a71',
    amount_in: 1000000000,
    amount_out: 3624219,
    by_amount_in: true,
    deviation_ratio: '-0.000412',
    insufficient_liquidity: false,
    total_deep_fee: 0,
    packages: { aggregator_v2: PACKAGE },
    routes: [
      {
        path: [
          {
            id: POOL_1,
            direction: true,
            provider: 'CETUS',
            from: '0x2::sui::SUI',
            target: USDC,
            fee_rate: '0.0025',
            amount_in: 1000000000,
            amount_out: 3624219,
            extended_details: null,
            version: 'v2',
          },
        ],
        amount_in: 1000000000,
        amount_out: 3624219,
        initial_price: '0.003634071301',
      },
    ],
  },
};

describe('readCetusQuote (the aggregator find_routes shape)', () => {
  it('reads amounts, the pool fee, price impact, the route and the hops', () => {
    expect(readCetusQuote(recorded, context)).toEqual({
      status: 'ok',
      family: 'sui',
      source: 'cetus',
      amountOutMicros: 3_624_219n,
      minAmountOutMicros: minAmountOut({ quotedAmountOutMicros: 3_624_219n, slippageBps: 100 }),
      poolFee: { amountMicros: 2_500_000n, side: 'input' },
      route: [`CETUS:${POOL_1}`],
      priceImpactBps: 4,
      expiresAt: context.expiresAt,
      netAmountInMicros: 1_000_000_000n,
      routes: [
        {
          amountIn: 1_000_000_000n,
          amountOut: 3_624_219n,
          hops: [
            {
              provider: 'CETUS',
              poolId: POOL_1,
              a2b: true,
              coinIn: SUI,
              coinOut: USDC,
              amountIn: 1_000_000_000n,
              amountOut: 3_624_219n,
            },
          ],
        },
      ],
      packageId: PACKAGE,
      globalConfigId: CONFIG,
    });
  });

  it('reads split and multi-hop routes; a multi-hop fee is not in input units: none reported', () => {
    const hop = (
      id: string,
      from: string,
      target: string,
      amountIn: number,
      amountOut: number,
    ) => ({
      id,
      direction: false,
      provider: 'CETUS',
      from,
      target,
      fee_rate: '0.0025',
      amount_in: amountIn,
      amount_out: amountOut,
    });
    const answer = {
      code: 200,
      msg: 'Success',
      data: {
        amount_in: 1000000000,
        amount_out: 3624000,
        routes: [
          {
            path: [hop(POOL_1, SUI, USDC, 600000000, 2175000)],
            amount_in: 600000000,
            amount_out: 2175000,
          },
          {
            path: [
              hop(POOL_2, SUI, CETUS, 400000000, 9000000000),
              hop(POOL_1, CETUS, USDC, 9000000000, 1449000),
            ],
            amount_in: 400000000,
            amount_out: 1449000,
          },
        ],
      },
    };
    const quote = readCetusQuote(answer, context);
    expect(quote).toMatchObject({
      status: 'ok',
      amountOutMicros: 3_624_000n,
      poolFee: null,
      priceImpactBps: null,
    });
    expect(
      quote.status === 'ok' && quote.family === 'sui' && quote.routes.map((r) => r.hops.length),
    ).toEqual([1, 2]);
  });

  it.each([
    [
      'insufficient liquidity',
      {
        code: 200,
        msg: 'Success',
        data: { ...recorded.data, insufficient_liquidity: true, routes: [] },
      },
      'no_route',
    ],
    ['no router code', { code: 10002, msg: 'No router', data: null }, 'no_route'],
    ['another error code', { code: 4001, msg: 'rate limited', data: null }, 'quote_unavailable'],
    [
      'another amount in',
      { ...recorded, data: { ...recorded.data, amount_in: 999 } },
      'quote_unavailable',
    ],
    [
      'a float amount',
      { ...recorded, data: { ...recorded.data, amount_out: 1.5 } },
      'quote_unavailable',
    ],
    [
      'an amount past 2^53 as a number',
      { ...recorded, data: { ...recorded.data, amount_out: 2 ** 60 } },
      'quote_unavailable',
    ],
    [
      'another DEX',
      {
        ...recorded,
        data: {
          ...recorded.data,
          routes: [
            {
              ...recorded.data.routes[0],
              path: [{ ...recorded.data.routes[0]?.path[0], provider: 'TURBOS' }],
            },
          ],
        },
      },
      'quote_unavailable',
    ],
    [
      'another output coin',
      {
        ...recorded,
        data: {
          ...recorded.data,
          routes: [
            {
              ...recorded.data.routes[0],
              path: [{ ...recorded.data.routes[0]?.path[0], target: CETUS }],
            },
          ],
        },
      },
      'quote_unavailable',
    ],
    [
      'amount_out not what the routes deliver',
      { ...recorded, data: { ...recorded.data, amount_out: 9_999_999 } },
      'quote_unavailable',
    ],
    ['not an answer', '<html>', 'quote_unavailable'],
  ])('%s: no price', (_name, body, status) => {
    expect(readCetusQuote(body, context)).toMatchObject({ status });
  });

  it('property: the minimum never exceeds the quote and the pool fee never exceeds the input', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }),
        fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }),
        fc.integer({ min: 0, max: 9_999 }),
        fc.integer({ min: 0, max: 500 }),
        (amountIn, amountOut, feeRateBps, slippageBps) => {
          const path = {
            ...recorded.data.routes[0]?.path[0],
            fee_rate: `0.${String(feeRateBps).padStart(4, '0')}`,
            amount_in: Number(amountIn),
            amount_out: Number(amountOut),
          };
          const body = {
            code: 200,
            msg: 'Success',
            data: {
              amount_in: Number(amountIn),
              amount_out: Number(amountOut),
              routes: [
                { path: [path], amount_in: Number(amountIn), amount_out: Number(amountOut) },
              ],
            },
          };
          const quote = readCetusQuote(body, {
            ...context,
            request: { ...request, slippageBps },
            netAmountInMicros: amountIn,
          });
          if (quote.status !== 'ok') throw new Error(quote.detail);
          expect(quote.minAmountOutMicros <= quote.amountOutMicros).toBe(true);
          expect(quote.poolFee?.amountMicros).toBe((amountIn * BigInt(feeRateBps)) / 10_000n);
        },
      ),
    );
  });
});

describe('createCetusQuoteSource (over HTTP)', () => {
  const settings = {
    baseUrl: 'http://cetus.test/router_v3',
    timeoutMs: 200,
    quoteTtlMs: 30_000,
    packageId: PACKAGE,
    globalConfigId: CONFIG,
  };

  it('asks find_routes for the input less the service fee, Cetus pools only', async () => {
    const asked: URL[] = [];
    const source = createCetusQuoteSource({
      ...settings,
      now: () => new Date('2026-11-27T12:00:00Z'),
      fetch: async (url) => {
        asked.push(new URL(String(url)));
        return new Response(JSON.stringify(recorded));
      },
    });
    expect(await source.quote(request)).toMatchObject({
      status: 'ok',
      expiresAt: context.expiresAt,
    });
    expect(asked[0]?.pathname).toBe('/router_v3/find_routes');
    expect(Object.fromEntries(asked[0]?.searchParams ?? [])).toEqual({
      from: SUI,
      target: USDC,
      amount: '1000000000',
      by_amount_in: 'true',
      depth: '3',
      providers: 'CETUS',
    });
  });

  it('fails closed: 5xx, not JSON, slow, refused', async () => {
    const answering = (response: () => Promise<Response>) =>
      createCetusQuoteSource({ ...settings, fetch: response });
    expect(
      await answering(async () => new Response('oops', { status: 502 })).quote(request),
    ).toEqual({
      status: 'quote_unavailable',
      detail: 'Cetus answered HTTP 502',
    });
    expect(await answering(async () => new Response('<html>')).quote(request)).toMatchObject({
      status: 'quote_unavailable',
    });
    const slow = createCetusQuoteSource({
      ...settings,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    expect(await slow.quote(request)).toEqual({
      status: 'quote_timeout',
      detail: 'Cetus did not answer within 200 ms',
    });
    const refused = answering(async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    });
    expect(await refused.quote(request)).toEqual({
      status: 'quote_unavailable',
      detail: 'Cetus could not be reached (ECONNREFUSED)',
    });
  });
});
