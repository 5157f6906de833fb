import type { CctpBedContracts } from '../evm/deployCctpPair';
import { deployCctpPair } from '../evm/deployCctpPair';
import type { EvmBed } from '../evm/startEvmBed';
import { startEvmBed } from '../evm/startEvmBed';
import type { IrisFake } from './startIrisFake';
import { startIrisFake } from './startIrisFake';

/** Base (domain 6) and Arbitrum (domain 3) anvils with the CCTP v2 stand-ins, and Iris over both. */
export interface CctpBeds {
  readonly base: EvmBed;
  readonly arbitrum: EvmBed;
  readonly onBase: CctpBedContracts;
  readonly onArbitrum: CctpBedContracts;
  readonly iris: IrisFake;
  stop(): Promise<void>;
}

/**
 * Starts the two EVM beds of a Base ↔ Arbitrum CCTP bridge, deploys the stand-ins on both, and
 * the attestation fake reading burns from them.
 *
 * @example
 * const beds = await startCctpBeds()
 * // beds.onBase.tokenMessenger, beds.iris.url, …; await beds.stop()
 */
export async function startCctpBeds(): Promise<CctpBeds> {
  const [base, arbitrum] = await Promise.all([
    startEvmBed({ chainId: 8453 }),
    startEvmBed({ chainId: 42161 }),
  ]);
  const [onBase, onArbitrum] = await deployCctpPair([
    { rpcUrl: base.anvil.rpcUrl, chainId: 8453, domain: 6, usdc: base.fixtures.usdc },
    { rpcUrl: arbitrum.anvil.rpcUrl, chainId: 42161, domain: 3, usdc: arbitrum.fixtures.usdc },
  ]);
  if (!onBase || !onArbitrum) throw new Error('no CCTP bed');
  const iris = await startIrisFake({
    domains: [onBase, onArbitrum].map(({ domain, rpcUrl, messageTransmitter }) => ({
      domain,
      rpcUrl,
      messageTransmitter,
    })),
  });
  return {
    base,
    arbitrum,
    onBase,
    onArbitrum,
    iris,
    async stop() {
      await iris.close();
      await Promise.all([base.stop(), arbitrum.stop()]);
    },
  };
}
