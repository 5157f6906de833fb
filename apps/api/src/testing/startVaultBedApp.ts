import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './startTestApp';
import { startTestApp } from './startTestApp';

/** An anvil bed for Base with its ERC-4626 vault as the `morpho` venue, and the app on it. */
export interface VaultBedApp {
  readonly evm: EvmBed;
  readonly t: TestApp;
  close(): Promise<void>;
}

/**
 * Starts the bed and the app (Base RPC, USDC, the vault as `morpho`), plus `env`; with `aave`,
 * the bed's Aave v3 pool as `aave-v3` too (a second venue to rebalance into).
 */
export async function startVaultBedApp(
  env: Record<string, string> = {},
  { aave = false }: { readonly aave?: boolean } = {},
): Promise<VaultBedApp> {
  const evm = await startEvmBed({ chainId: 8453 });
  const { fixtures } = evm;
  const t = await startTestApp({
    SVC_BASE_RPC_URL: evm.adapterConfig.rpcUrl,
    SVC_BASE_USDC_ADDRESS: evm.adapterConfig.usdcAddress,
    SVC_VENUE_IDS: JSON.stringify({
      morpho: { vault: fixtures.vault },
      ...(aave ? { 'aave-v3': { pool: fixtures.aavePool, aToken: fixtures.aToken } } : {}),
    }),
    ...env,
  });
  return {
    evm,
    t,
    close: async () => {
      await t.close();
      await evm.stop();
    },
  };
}
