// Shared values for this package's tests (not exported from index.ts).
import { fromBase64, toBase58 } from '@mysten/sui/utils';
import type { LegBuild, LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import type { SuiFake, SuiFakePool } from '@yieldrouter/chain-beds/sui';
import type { SuiAdapterConfig } from './config';
import type { SuiResolvedRefs } from './resolvedLegs';
import type { SuiSwapLegRequest } from './swapLeg';

export const USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
export const PACKAGE_ID = `0x${'b2'.repeat(32)}`;
export const ROUTER_ID = `0x${'c3'.repeat(32)}`;
export const REGISTRY_ID = `0x${'d4'.repeat(32)}`;
export const ADAPTER = `0x${'e5'.repeat(32)}`;
export const RECEIPT_COIN = `0x${'f6'.repeat(32)}::vault::RECEIPT`;
export const PLAN_ID = `plan_${'0123456789abcdef'.repeat(2)}`;
export const OTHER_PLAN_ID = `plan_${'fedcba9876543210'.repeat(2)}`;

/** A complete configuration against `rpcUrl`; override any field. */
export function suiConfig(overrides: Partial<SuiAdapterConfig> = {}): SuiAdapterConfig {
  return {
    rpcUrl: undefined,
    network: 'localnet',
    timeoutMs: 2000,
    broadcastEnabled: true,
    usdcCoinType: USDC,
    ...overrides,
  };
}

const hex = (byte: string) => `0x${byte.repeat(32)}`;

/** Suilend's ids as SVC_VENUE_IDS names them (made-up ids, real shapes). */
export const SUILEND_MARKET_TYPE = `${hex('51')}::suilend::MAIN_POOL`;
export const SUILEND: VenueOnChain = {
  venueId: 'suilend',
  chain: 'sui',
  standard: 'router-adapter',
  ids: {
    package: hex('52'),
    lendingMarket: hex('53'),
    lendingMarketType: SUILEND_MARKET_TYPE,
    reserveIndex: '0',
    receiptCoinType: `${hex('51')}::reserve::CToken<${SUILEND_MARKET_TYPE}, ${USDC}>`,
  },
};

export const NAVI: VenueOnChain = {
  venueId: 'navi',
  chain: 'sui',
  standard: 'router-adapter',
  ids: {
    package: hex('61'),
    storage: hex('62'),
    pool: hex('63'),
    assetId: '10',
    incentiveV2: hex('64'),
    incentiveV3: hex('65'),
    priceOracle: hex('66'),
    reserve: hex('67'),
    supplyBalances: hex('68'),
    lendingCorePackage: hex('69'),
  },
};

export const SCALLOP: VenueOnChain = {
  venueId: 'scallop',
  chain: 'sui',
  standard: 'router-adapter',
  ids: {
    package: hex('71'),
    version: hex('72'),
    market: hex('73'),
    balanceSheet: hex('74'),
    receiptCoinType: `${hex('75')}::reserve::MarketCoin<${USDC}>`,
  },
};

export const VENUE = SUILEND;

/** Every shared object the three venues' calls take, with the Clock and the system state. */
export const VENUE_SHARED_REFS = [
  '0x6',
  '0x5',
  hex('53'),
  hex('62'),
  hex('63'),
  hex('64'),
  hex('65'),
  hex('66'),
  hex('72'),
  hex('73'),
].map((objectId) => ({ objectId, initialSharedVersion: '1' }));

/** A wallet leg (target `router`: liquid, no venue) request for `owner`. */
export function legRequest(owner: string, overrides: Partial<LegRequest> = {}): LegRequest {
  return {
    planId: PLAN_ID,
    owner,
    amountMicros: 12_500_000n,
    target: { kind: 'router' },
    ...overrides,
  };
}

/** An owned-object ref made from one byte (any value works for offline builds). */
export function objectRef(seed: number, version = '7') {
  return {
    objectId: `0x${seed.toString(16).padStart(2, '0').repeat(32)}`,
    version,
    digest: toBase58(new Uint8Array(32).fill(seed)),
  };
}

/** Refs for `buildDepositBytes` / `buildWithdrawBytes` against the configured ids. */
export const RESOLVED_REFS: SuiResolvedRefs = {
  gas: [objectRef(0x11)],
  gasPrice: 1000n,
  gasBudget: 20_000_000n,
  usdcCoins: [objectRef(0x21), objectRef(0x22, '9')],
  shared: VENUE_SHARED_REFS,
};

/** The BCS bytes of a prepared one-leg build. */
export function legBytes(build: LegBuild): Uint8Array {
  if (build.status !== 'prepared') throw new Error(`expected prepared, got ${build.status}`);
  const payload = build.legs[0]?.payload;
  if (payload?.encoding !== 'sui-transaction-bcs-base64') throw new Error('not bcs bytes');
  return fromBase64(payload.transaction);
}

/** The USDC/SUI pool the swap-leg tests run through on the fake (1M USDC, 250k SUI). */
export function addUsdcSuiPool(fake: SuiFake): SuiFakePool {
  return fake.addCetusPool({
    coinA: USDC,
    coinB: '0x2::sui::SUI',
    reserveA: 1_000_000_000_000n,
    reserveB: 250_000_000_000_000n,
  });
}

/** Where the swap-leg tests pay the service fee. */
export const SWAP_FEE_RECIPIENT = `0x${'9a'.repeat(32)}`;

/** A Cetus swap leg of 10 USDC → SUI through `pool` (0.01 USDC service fee first). */
export function poolSwapLegRequest(
  pool: SuiFakePool,
  owner: string,
  minimum: bigint,
  overrides: Partial<SuiSwapLegRequest> = {},
): SuiSwapLegRequest {
  const SUI = '0x2::sui::SUI';
  return {
    planId: PLAN_ID,
    owner,
    inputCoinType: USDC,
    outputCoinType: SUI,
    amountInMicros: 10_000_000n,
    serviceFee: { amountMicros: 10_000n, recipient: SWAP_FEE_RECIPIENT },
    routes: [
      {
        amountIn: 9_990_000n,
        hops: [{ poolId: pool.pool.objectId, a2b: true, coinIn: USDC, coinOut: SUI }],
      },
    ],
    minAmountOutMicros: minimum,
    packageId: pool.packageId,
    globalConfigId: pool.globalConfig.objectId,
    summary: 'Swap 10 USDC for SUI',
    ...overrides,
  };
}
