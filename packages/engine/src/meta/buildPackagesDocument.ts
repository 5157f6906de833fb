import type { FeeSchedule } from '@yieldrouter/fees';
import type { Chain, ChainEnablement, OnChainIds, PackagesDocument } from '@yieldrouter/schemas';
import { EVM_CHAIN_IDS, USDC_DECIMALS } from '@yieldrouter/schemas';
import type { ChainsConfig } from '../chains/chainsConfig';

type ChainPackage = PackagesDocument['chains'][number];
type OnChainObject = ChainPackage['objects'][number];

const NOT_CONFIGURED = 'not configured in this environment';

function object(kind: string, id: string | undefined): OnChainObject {
  return id ? { kind, id } : { kind, id: null, reason: NOT_CONFIGURED };
}

export interface BuildPackagesDocumentParameters {
  readonly ids: OnChainIds;
  readonly enablement: readonly ChainEnablement[];
  readonly fees: FeeSchedule;
  readonly chains: ChainsConfig;
}

/**
 * svc-packages.v1. Ids come only from configuration; an id that is not configured is `null`
 * with a reason. `status: live` means the main object (package / program / registry) is
 * configured as deployed; it says nothing about write-readiness.
 */
export function buildPackagesDocument({
  ids,
  enablement,
  fees,
  chains,
}: BuildPackagesDocumentParameters): PackagesDocument {
  const reach = (chain: Chain) => ({
    assets: [{ asset: 'USDC', id: chains[chain].usdc, decimals: USDC_DECIMALS }],
    rpc: { configured: chains[chain].rpcUrl !== undefined, timeoutMs: chains.timeoutMs },
  });
  const flags = (chain: ChainEnablement['chain']) => {
    const found = enablement.find((entry) => entry.chain === chain);
    return {
      writeReady: found?.writeReady ?? false,
      liveMoneyPath: found?.liveMoneyPath ?? false,
      broadcastEnabled: found?.broadcastEnabled ?? false,
    };
  };
  const heldAuthority = {
    held: true,
    burned: false,
    note: 'Held by the operator; not burned or renounced until an explicit lock decision.',
  };
  const registryFeeConfig = {
    yieldSkimBps: fees.yieldSkimBps,
    depositFeeBps: fees.depositFeeBps,
    maxYieldSkimBps: fees.registryMaxYieldSkimBps,
  };
  const expansion = (executionEnabled: boolean) => ({
    goNoGo: 'NO_GO_EXPANSION' as const,
    targetGoNoGo: 'GO' as const,
    executionEnabled,
    targetExecutionEnabled: true,
    writeAdapters: 'stub' as const,
    targetWriteAdapters: 'live' as const,
  });
  const evm = (chain: 'base' | 'arbitrum', targetRole: ChainPackage['targetRole']) => {
    const config = ids[chain];
    const entry: ChainPackage = {
      chain,
      label: 'Map',
      network: chain === 'base' ? 'base-mainnet' : 'arbitrum-one',
      chainId: EVM_CHAIN_IDS[chain],
      role: 'expansion_discovery',
      targetRole,
      status: config.registryAddress ? 'live' : 'target',
      ...flags(chain),
      objects: [object('registry', config.registryAddress), object('deployTx', config.deployTx)],
      ...reach(chain),
      registryFeeConfig,
    };
    if (chain === 'base') entry.expansion = expansion(false);
    return entry;
  };
  return {
    schemaVersion: 'svc-packages.v1',
    chains: [
      {
        chain: 'sui',
        label: 'Executable',
        network: chains.sui.network,
        role: 'execution_home',
        targetRole: 'execution_home',
        status: ids.sui.packageId ? 'live' : 'target',
        ...flags('sui'),
        objects: [
          object('package', ids.sui.packageId),
          object('upgradeCap', ids.sui.upgradeCapId),
          object('adapterRegistry', ids.sui.adapterRegistryId),
          object('yieldRouter', ids.sui.yieldRouterId),
          object('protocolConfig', ids.sui.protocolConfigId),
          object('testnetPackage', ids.sui.testnetPackageId),
        ],
        ...reach('sui'),
        modules: ['main', 'adapter_registry', 'yield_router', 'vault'],
        upgradeAuthority: heldAuthority,
      },
      {
        chain: 'solana',
        label: 'Executable',
        network: chains.solana.network,
        role: 'execution_home',
        targetRole: 'execution_home',
        status: ids.solana.programId ? 'live' : 'target',
        ...flags('solana'),
        objects: [
          object('program', ids.solana.programId),
          object('adapterRegistry', ids.solana.adapterRegistry),
          object('yieldRouter', ids.solana.yieldRouter),
          object('upgradeAuthority', ids.solana.upgradeAuthority),
        ],
        ...reach('solana'),
        upgradeAuthority: heldAuthority,
      },
      evm('base', 'execution_home'),
      evm('arbitrum', 'expansion_discovery'),
    ],
  };
}
