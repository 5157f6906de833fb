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
    packageId: PACKAGE_ID,
    yieldRouterId: ROUTER_ID,
    adapterRegistryId: REGISTRY_ID,
    ...overrides,
  };
}

export const VENUE: VenueOnChain = {
  venueId: 'sui-vault-1',
  chain: 'sui',
  standard: 'router-adapter',
  ids: { adapter: ADAPTER, receiptCoinType: RECEIPT_COIN },
};

/** A router deposit/withdraw request for `owner`. */
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
  router: { objectId: ROUTER_ID, initialSharedVersion: '5' },
  registry: { objectId: REGISTRY_ID, initialSharedVersion: '6' },
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
