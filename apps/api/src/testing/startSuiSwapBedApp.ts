import { startCetusFake } from '@yieldrouter/chain-beds/quotes';
import type { CetusFake } from '@yieldrouter/chain-beds/quotes';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import { createChainAdapters } from '@yieldrouter/engine';
import type { ChainAdapters } from '@yieldrouter/engine';
import type { SuiFake, SuiFakePool } from '@yieldrouter/chain-beds/sui';
import type { TestApp } from './startTestApp';
import { startTestApp } from './startTestApp';

/** The Sui swap tests' USDC, and where the service fee is paid on Sui. */
export const SUI_TEST_USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
export const SUI_SWAP_FEE_RECIPIENT = `0x${'9a'.repeat(32)}`;

export interface SuiSwapBedApp {
  readonly sui: SuiFake;
  readonly pool: SuiFakePool;
  readonly cetus: CetusFake;
  readonly t: TestApp;
  /** The app's chain adapters, for the keeper's settlement watch run in the test. */
  readonly adapters: ChainAdapters;
  /** The owner's wallet's client of the fake (resolves legs, executes, reads balances). */
  readonly client: SuiJsonRpcClient;
  close(): Promise<void>;
}

/**
 * The Sui fake with a USDC/SUI Cetus-shaped pool it runs, the Cetus aggregator fake quoting over
 * it (slow mode: 2 s, past the app's 500 ms quote timeout), and an app configured for both.
 * `onBed` lays more on the fake first (our router package, say) and answers its settings.
 */
export async function startSuiSwapBedApp(
  onBed?: (sui: SuiFake) => Readonly<Record<string, string>>,
): Promise<SuiSwapBedApp> {
  const sui = await startSuiFake();
  const pool = sui.addCetusPool({
    coinA: SUI_TEST_USDC,
    coinB: '0x2::sui::SUI',
    reserveA: 2_000_000_000_000n,
    reserveB: 500_000_000_000_000n,
    feeBps: 25n,
  });
  const cetus = await startCetusFake({ pools: [pool], slowMs: 2_000 });
  const t = await startTestApp({
    SVC_SUI_RPC_URL: sui.rpcUrl,
    SVC_SUI_NETWORK: 'localnet',
    SVC_SUI_USDC_COIN_TYPE: SUI_TEST_USDC,
    SVC_CETUS_BASE_URL: cetus.url,
    SVC_CETUS_TIMEOUT_MS: '500',
    SVC_CETUS_AGGREGATOR_PACKAGE_ID: pool.packageId,
    SVC_CETUS_GLOBAL_CONFIG_ID: pool.globalConfig.objectId,
    SVC_SUI_SWAP_FEE_RECIPIENT: SUI_SWAP_FEE_RECIPIENT,
    ...onBed?.(sui),
  });
  return {
    sui,
    pool,
    cetus,
    t,
    adapters: createChainAdapters({
      chains: t.config.chains,
      ids: t.config.onChainIds,
      switches: t.config.switches,
    }),
    client: new SuiJsonRpcClient({
      network: 'localnet',
      transport: new JsonRpcHTTPTransport({ url: sui.rpcUrl }),
    }),
    close: async () => {
      await t.close();
      await cetus.close();
      await sui.stop();
    },
  };
}
