import { deployEvmFixtures } from './deployEvmFixtures';
import type { EvmFixtures } from './deployEvmFixtures';
import { startAnvil } from './startAnvil';
import type { AnvilInstance } from './startAnvil';

export interface StartEvmBedParameters {
  /** 8453 (Base) unless given. */
  readonly chainId?: number;
}

/** A running node with the fixtures deployed: what a test or a benchmark usually wants. */
export interface EvmBed {
  readonly anvil: AnvilInstance;
  readonly fixtures: EvmFixtures;
  /** Inputs for `createEvmAdapter` pointing at this bed. */
  readonly adapterConfig: {
    readonly rpcUrl: string;
    readonly usdcAddress: string;
    readonly registryAddress: string;
  };
  stop(): Promise<void>;
}

/**
 * Starts anvil and deploys the fixtures; stops the node again if deployment fails.
 *
 * @example
 * const bed = await startEvmBed();
 * const adapter = createEvmAdapter({ chain: 'base', timeoutMs: 2_000, ...bed.adapterConfig });
 * await bed.stop();
 */
export async function startEvmBed({ chainId = 8453 }: StartEvmBedParameters = {}): Promise<EvmBed> {
  const anvil = await startAnvil({ chainId });
  try {
    const fixtures = await deployEvmFixtures({ rpcUrl: anvil.rpcUrl, chainId });
    return {
      anvil,
      fixtures,
      adapterConfig: {
        rpcUrl: anvil.rpcUrl,
        usdcAddress: fixtures.usdc,
        registryAddress: fixtures.registry,
      },
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
