import fc from 'fast-check';
import { defaultFeeSchedule } from '@yieldrouter/fees';
import { NATIVE_USDC, OnChainIds } from '@yieldrouter/schemas';
import type { LegBuild } from '@yieldrouter/schemas';
import { createChainAdapters } from '../chains/createChainAdapters';
import { joinCrossAssetPlan, prepareCrossAssetSwap } from './crossAssetSwap';
import type { CrossAssetSwap } from './crossAssetSwap';
import { parseCetusSettings } from './cetusSettings';
import { JUPITER_V6_PROGRAM_ID, parseJupiterSettings } from './jupiterSettings';
import { routeSwapsOf, solanaSuiRouteSwaps } from './routeSwaps';
import type { SuiSwapQuote } from './suiSwapQuote';
import type { SwapQuoteFacts, SwapQuoteSource } from './swapQuoteSource';
import { parseSwapSettings } from './swapSettings';

// For random amounts in, quotes, pool fees and slippage: what a cross-asset plan deposits is the
// swap's minimum out (never more than the quote), its fee is the sum of its input-side fee
// lines, its legs are the swap's then the deposit's, and every amount is a whole number — on EVM
// (0x, approval + swap legs) and on Sui (Cetus, one programmable transaction built locally).
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TARGET = '0x0000000000001fF3684f28c67538d4D072C22734';
const OFF = { executionEnabled: false, broadcastEnabled: false } as const;

const adapters = createChainAdapters({
  chains: {
    timeoutMs: 500,
    sui: { rpcUrl: undefined, network: 'mainnet', usdc: NATIVE_USDC.sui },
    solana: { rpcUrl: undefined, network: 'mainnet-beta', usdc: NATIVE_USDC.solana },
    base: { rpcUrl: undefined, usdc: NATIVE_USDC.base },
    arbitrum: { rpcUrl: undefined, usdc: NATIVE_USDC.arbitrum },
  },
  ids: OnChainIds.parse({ sui: {}, solana: {}, base: {}, arbitrum: {} }),
  switches: { sui: OFF, solana: OFF, base: OFF, arbitrum: OFF },
});
const config = parseSwapSettings(
  {
    SVC_ZEROX_TIMEOUT_MS: 1_000,
    SVC_SWAP_QUOTE_TTL_SECONDS: 30,
    SVC_BASE_SWAP_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  },
  { base: NATIVE_USDC.base, arbitrum: NATIVE_USDC.arbitrum },
);
const weth = config.tokens.base.find((token) => token.symbol === 'WETH');
if (!weth) throw new Error('no WETH');
const SUI_OWNER = `0x${'0b'.repeat(32)}`;
const SUI_POOL = `0x${'c0'.repeat(32)}`;
const SUI_PACKAGE = `0x${'ce'.repeat(32)}`;
const SUI_CONFIG = `0x${'cf'.repeat(32)}`;
const jupiter = parseJupiterSettings(
  { SVC_JUPITER_TIMEOUT_MS: 1_000, SVC_JUPITER_PROGRAM_ID: JUPITER_V6_PROGRAM_ID },
  NATIVE_USDC.solana,
);
const cetus = parseCetusSettings(
  {
    SVC_CETUS_BASE_URL: 'http://127.0.0.1:9',
    SVC_CETUS_TIMEOUT_MS: 1_000,
    SVC_CETUS_AGGREGATOR_PACKAGE_ID: SUI_PACKAGE,
    SVC_CETUS_GLOBAL_CONFIG_ID: SUI_CONFIG,
    SVC_SUI_SWAP_FEE_RECIPIENT: `0x${'9a'.repeat(32)}`,
  },
  NATIVE_USDC.sui,
);
const suiToken = cetus.tokens.find((token) => token.symbol === 'SUI');
if (!suiToken) throw new Error('no SUI');
/** A deposit leg of the plan (shaped as the adapter's swap leg, as a venue's would be). */
const depositLeg = (swapBuild: LegBuild, amountMicros: bigint): LegBuild => {
  const leg = swapBuild.status === 'prepared' ? swapBuild.legs.at(-1) : undefined;
  if (!leg) throw new Error('no swap leg');
  return { status: 'prepared', legs: [{ ...leg, action: 'deposit', amountMicros }] };
};

const MAX = 2n ** 63n - 1n;

/** What any family's firm quote says: `quoted` out (its own minimum too), the pool fee drawn. */
const quoteFacts = (source: string, quoted: bigint, poolFee: bigint | null): SwapQuoteFacts => ({
  status: 'ok',
  source,
  amountOutMicros: quoted,
  minAmountOutMicros: quoted,
  poolFee: poolFee === null ? null : { amountMicros: poolFee, side: 'input' },
  route: [source],
  priceImpactBps: null,
  expiresAt: new Date('2026-11-27T06:00:00Z'),
});

/** The plan's invariants, whatever the chain family built its swap legs. */
function checkPlan(
  swap: CrossAssetSwap,
  drawn: { amountIn: bigint; quoted: bigint; slippageBps: number; poolFee: bigint | null },
  swapLegs: string[][],
) {
  const { amountIn, quoted, slippageBps, poolFee } = drawn;
  const service = (amountIn * BigInt(defaultFeeSchedule.swapFeeBps)) / 10_000n;
  if (swap.build.status === 'blocked') {
    // Only a pool fee above what is left of the input blocks it (fees out of range).
    expect(service + (poolFee ?? 0n)).toBeGreaterThan(amountIn);
    expect(swap.depositMicros).toBe(0n);
    return;
  }
  const plan = joinCrossAssetPlan(swap, depositLeg(swap.build, swap.depositMicros), 'stake', 'x');
  expect(swap.depositMicros).toBe((quoted * BigInt(10_000 - slippageBps)) / 10_000n);
  expect(swap.depositMicros <= quoted).toBe(true);
  const lines = plan.parts.feeLines ?? [];
  expect(plan.feeMicros).toBe(lines.reduce((sum, line) => sum + BigInt(line.amountMicros), 0n));
  expect(plan.parts.depositMicros).toBe(swap.depositMicros.toString());
  expect(plan.legs.map((leg) => [leg.action, leg.effect])).toEqual([
    ...swapLegs,
    ['deposit', 'stake'],
  ]);
  // No floats: every amount the document shows is a decimal string of an integer.
  for (const text of [plan.parts.minAmountOutMicros, ...lines.map((l) => l.amountMicros)]) {
    expect(text).toMatch(/^(0|[1-9][0-9]*)$/);
  }
}

describe('cross-asset plans (property)', () => {
  it('deposit = minAmountOut ≤ quoted; feeMicros = Σ input-side lines; swap legs first', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 10n ** 18n }),
        fc.bigInt({ min: 1n, max: MAX }),
        fc.integer({ min: 0, max: 500 }),
        fc.option(fc.bigInt({ min: 0n, max: 10n ** 15n }), { nil: null }),
        fc.boolean(),
        async (amountIn, quoted, slippageBps, poolFee, allowanceShort) => {
          const source: SwapQuoteSource = {
            name: '0x',
            chains: ['base'],
            quote: async (request) => ({
              ...quoteFacts('0x', quoted, poolFee),
              family: 'evm',
              transaction: { to: TARGET, data: '0x2213bc0b', value: 0n },
              allowanceTarget: TARGET,
              takerAllowance: allowanceShort ? 0n : request.amountInMicros,
            }),
          };
          const swap = await prepareCrossAssetSwap({
            adapters,
            swaps: routeSwapsOf(config, source),
            chain: 'base',
            planId: 'plan_00000000000000000000000000000001',
            owner: OWNER,
            input: weth,
            amountInMicros: amountIn,
            slippageBps,
          });
          checkPlan(swap, { amountIn, quoted, slippageBps, poolFee }, [
            ...(allowanceShort ? [['approve', 'none']] : []),
            ['swap', 'swap'],
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });
  it('on Sui: the Cetus swap leg (one transaction) then the deposit; the same invariants', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 10n ** 18n }),
        fc.bigInt({ min: 1n, max: MAX }),
        fc.integer({ min: 0, max: 500 }),
        fc.option(fc.bigInt({ min: 0n, max: 10n ** 15n }), { nil: null }),
        async (amountIn, quoted, slippageBps, poolFee) => {
          const source: SwapQuoteSource<SuiSwapQuote> = {
            name: 'cetus',
            chains: ['sui'],
            quote: async (request) => {
              const net = request.amountInMicros - request.serviceFee.amountMicros;
              return {
                ...quoteFacts('cetus', quoted, poolFee),
                family: 'sui',
                netAmountInMicros: net,
                routes: [
                  {
                    amountIn: net,
                    amountOut: quoted,
                    hops: [
                      {
                        provider: 'CETUS',
                        poolId: SUI_POOL,
                        a2b: false,
                        coinIn: request.inputToken.address,
                        coinOut: request.outputToken.address,
                        amountIn: net,
                        amountOut: quoted,
                      },
                    ],
                  },
                ],
                packageId: SUI_PACKAGE,
                globalConfigId: SUI_CONFIG,
              };
            },
          };
          const swaps = routeSwapsOf(
            config,
            undefined,
            solanaSuiRouteSwaps({ jupiter, solanaSource: undefined, cetus, suiSource: source }),
          );
          const swap = await prepareCrossAssetSwap({
            adapters,
            swaps,
            chain: 'sui',
            planId: 'plan_00000000000000000000000000000002',
            owner: SUI_OWNER,
            input: suiToken,
            amountInMicros: amountIn,
            slippageBps,
          });
          checkPlan(swap, { amountIn, quoted, slippageBps, poolFee }, [['swap', 'swap']]);
        },
      ),
      { numRuns: 100 },
    );
  });
});
