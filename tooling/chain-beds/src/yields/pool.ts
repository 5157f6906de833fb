/**
 * One pool as DefiLlama's yields API lists it under `GET /pools` → `data[]`. Percent fields are
 * plain percentages (4.21 means 4.21 %), `tvlUsd` is dollars; nullable fields are null when
 * DefiLlama has no value.
 */
export interface YieldsPool {
  readonly chain: string;
  readonly project: string;
  readonly symbol: string;
  readonly tvlUsd: number;
  readonly apyBase: number | null;
  readonly apyReward: number | null;
  readonly apy: number | null;
  readonly rewardTokens: readonly string[] | null;
  /** DefiLlama's pool id (usually a UUID); what the router configures per venue. */
  readonly pool: string;
  readonly apyPct1D: number | null;
  readonly apyPct7D: number | null;
  readonly apyPct30D: number | null;
  readonly stablecoin: boolean;
  readonly ilRisk: 'no' | 'yes';
  readonly exposure: 'single' | 'multi';
  readonly predictions: {
    readonly predictedClass: string | null;
    readonly predictedProbability: number | null;
    readonly binnedConfidence: number | null;
  };
  readonly poolMeta: string | null;
  readonly mu: number | null;
  readonly sigma: number | null;
  readonly count: number | null;
  readonly outlier: boolean;
  readonly underlyingTokens: readonly string[] | null;
  readonly il7d: number | null;
  readonly apyBase7d: number | null;
  readonly apyMean30d: number | null;
  readonly volumeUsd1d: number | null;
  readonly volumeUsd7d: number | null;
  readonly apyBaseInception: number | null;
}

/**
 * A real-shaped single-asset lending pool: every field present, values plausible. Override what
 * a test controls (`pool`, `apy`, `apyBase`, `apyReward`, `tvlUsd`, …).
 */
export function makeYieldsPool(
  overrides: Partial<YieldsPool> & { readonly pool: string },
): YieldsPool {
  return {
    chain: 'Base',
    project: 'aave-v3',
    symbol: 'USDC',
    tvlUsd: 123_456_789,
    apyBase: 4.21,
    apyReward: null,
    apy: 4.21,
    rewardTokens: null,
    apyPct1D: 0.03,
    apyPct7D: -0.12,
    apyPct30D: 0.4,
    stablecoin: true,
    ilRisk: 'no',
    exposure: 'single',
    predictions: { predictedClass: 'Stable/Up', predictedProbability: 71, binnedConfidence: 2 },
    poolMeta: null,
    mu: 4.5,
    sigma: 0.08,
    count: 410,
    outlier: false,
    underlyingTokens: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
    il7d: null,
    apyBase7d: 4.3,
    apyMean30d: 4.5,
    volumeUsd1d: null,
    volumeUsd7d: null,
    apyBaseInception: null,
    ...overrides,
  };
}

/**
 * Test pools covering the four chains, with fixed bed-only ids (not DefiLlama's real ids) and
 * controlled values. Includes one pool whose `apy` is null, one the source flags as an outlier
 * (with a falling prediction) and one with multi exposure and impermanent-loss risk, so every
 * risk field takes more than one value.
 */
export const DEFAULT_YIELDS_POOLS: readonly YieldsPool[] = [
  makeYieldsPool({ pool: '0b8f3d2e-5c41-4a53-9e0a-1a2b3c4d5e01' }),
  makeYieldsPool({
    pool: '0b8f3d2e-5c41-4a53-9e0a-1a2b3c4d5e02',
    chain: 'Arbitrum',
    tvlUsd: 98_765_432.1,
    apyBase: 3.87,
    apy: 3.87,
    underlyingTokens: ['0xaf88d065e77c8cC2239327C5EDb3A432268e5831'],
  }),
  makeYieldsPool({
    pool: '0b8f3d2e-5c41-4a53-9e0a-1a2b3c4d5e03',
    chain: 'Solana',
    project: 'kamino-lend',
    tvlUsd: 45_000_000.5,
    apyBase: 5.1,
    apyReward: 1.25,
    apy: 6.35,
    rewardTokens: ['KMNo3nJsBXfcpJTVhZcXLW7RmTwTt4GVFE7suUBo9sS'],
    underlyingTokens: ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    exposure: 'multi',
    ilRisk: 'yes',
  }),
  makeYieldsPool({
    pool: '0b8f3d2e-5c41-4a53-9e0a-1a2b3c4d5e04',
    chain: 'Sui',
    project: 'suilend',
    tvlUsd: 12_345_678.9,
    apyBase: 6.02,
    apyReward: 2.5,
    apy: 8.52,
    outlier: true,
    predictions: { predictedClass: 'Down', predictedProbability: 64, binnedConfidence: 1 },
    underlyingTokens: [
      '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC',
    ],
  }),
  makeYieldsPool({
    pool: '0b8f3d2e-5c41-4a53-9e0a-1a2b3c4d5e05',
    chain: 'Sui',
    project: 'navi-lending',
    tvlUsd: 2_500_000,
    apyBase: null,
    apyReward: null,
    apy: null,
    apyMean30d: null,
    mu: null,
    sigma: null,
  }),
];
