// Shared values for this package's tests (not exported from index.ts).
import type { LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import type { SuiAdapterConfig } from './config';

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
