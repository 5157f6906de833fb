import type { Address } from 'viem';
import { createChainAdapters } from '@yieldrouter/engine';
import type { ChainAdapters } from '@yieldrouter/engine';
import { watchSettlements } from '@yieldrouter/jobs';
import { testJobDeps } from '@yieldrouter/jobs/testing';
import { startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { startZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { ZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { TestApp } from './startTestApp';
import { startTestApp } from './startTestApp';

/** Where the swap tests' service fee is paid (an anvil account nobody else uses). */
export const SWAP_FEE_RECIPIENT: Address = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

export interface SwapBedApp {
  readonly bed: EvmBed;
  readonly fake: ZeroExFake;
  readonly t: TestApp;
  /** The app's chain adapters (what the keeper reads receipts through). */
  readonly adapters: ChainAdapters;
  /** One run of the keeper's settlement watch over the app's books: its counts. */
  watchSettlements(): ReturnType<typeof watchSettlements>;
  close(): Promise<void>;
}

/**
 * A Base bed (anvil with the USDC/WETH pair), the 0x-shaped fake quoting over it (slow mode: 2 s,
 * past the app's 500 ms quote timeout), and an app configured for both: what swap and gas-sponsor
 * plan tests run against.
 */
export async function startSwapBedApp(
  /** More settings for the app (venue ids, API keys…), given the bed. */
  extra: (bed: EvmBed) => Record<string, string> = () => ({}),
): Promise<SwapBedApp> {
  const bed = await startEvmBed({ chainId: 8453 });
  const fake = await startZeroExFake({
    chains: [{ rpcUrl: bed.anvil.rpcUrl, chainId: 8453, pair: bed.fixtures.pair }],
    slowMs: 2_000,
  });
  const t = await startTestApp({
    SVC_BASE_RPC_URL: bed.anvil.rpcUrl,
    SVC_BASE_USDC_ADDRESS: bed.fixtures.usdc,
    SVC_ZEROX_BASE_URL: fake.url,
    SVC_ZEROX_TIMEOUT_MS: '500',
    SVC_BASE_SWAP_FEE_RECIPIENT: SWAP_FEE_RECIPIENT,
    SVC_BASE_SWAP_TOKENS: `WETH:${bed.fixtures.weth}:18`,
    ...extra(bed),
  });
  const adapters = createChainAdapters({
    chains: t.config.chains,
    ids: t.config.onChainIds,
    switches: t.config.switches,
  });
  return {
    bed,
    fake,
    t,
    adapters,
    watchSettlements: () =>
      watchSettlements(
        testJobDeps(
          { url: '', db: t.db, drop: async () => undefined },
          { adapters, venues: t.config.venues },
        ),
      ),
    close: async () => {
      await t.close();
      await fake.close();
      await bed.stop();
    },
  };
}
