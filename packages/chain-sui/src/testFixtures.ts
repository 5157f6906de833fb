// Shared values for this package's tests (not exported from index.ts).
import { fromBase64, toBase58 } from '@mysten/sui/utils';
import type { LegBuild, LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import type { SuiAdapterConfig } from './config';
import type { SuiResolvedRefs } from './resolvedLegs';

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
