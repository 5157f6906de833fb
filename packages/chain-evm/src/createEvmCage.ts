import type {
  CageChain,
  CageTransactionRequest,
  LegSimulationQuery,
  LegSimulationReading,
} from '@yieldrouter/schemas';
import { encodeFunctionData } from 'viem';
import type { Address, Hex } from 'viem';
import { erc20Abi } from './abis';
import { createEvmContext } from './evmContext';
import type { EvmAdapterConfig } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { readCageState } from './readCageState';
import { simulateEvmLegs } from './simulateEvmLegs';
import type { ReadCageStateReturnType } from './readCageState';

export interface EvmCageConfig extends EvmAdapterConfig {
  readonly chain: CageChain;
  /** Our YieldCage on this chain; unset answers `cage_not_configured`, never a guess. */
  readonly cageAddress: string | undefined;
}

/** The cage on one Map chain: reads fail-closed, transactions are built for the owner to sign. */
export interface EvmCage {
  readonly chain: CageChain;
  readonly chainId: number;
  readonly label: string;
  /** Undefined when no cage is configured. */
  readonly address: Address | undefined;
  readonly rpcConfigured: boolean;
  readonly usdc: Address | undefined;
  /** Requires a configured cage and RPC (the caller checks both first). */
  readState(owner: Address, alsoVenues?: readonly Address[]): Promise<ReadCageStateReturnType>;
  /** A call from `from` to `to`, value 0: never signed here. */
  transaction(from: Address, to: Address, data: Hex): CageTransactionRequest;
  /** `USDC.approve(cage, amount)`: what ROUTE needs first. */
  approval(owner: Address, amount: bigint): CageTransactionRequest | undefined;
  /** Issue 44: an action's transactions simulated from the owner (eth_simulateV1), fail-closed. */
  simulateLegs(query: LegSimulationQuery): Promise<LegSimulationReading>;
}

/**
 * The cage view of an EVM chain. No RPC call happens here; a malformed cage address throws.
 *
 * @example
 * const cage = createEvmCage({ chain: 'base', rpcUrl, timeoutMs: 2_000, usdcAddress, registryAddress: undefined, cageAddress });
 * await cage.readState(owner);
 */
export function createEvmCage(config: EvmCageConfig): EvmCage {
  const context = createEvmContext(config);
  const address =
    config.cageAddress === undefined ? undefined : normalizeEvmAddress(config.cageAddress);
  // A configured cage that is not an address is a deployment mistake: refuse to start with it.
  if (config.cageAddress !== undefined && !address) {
    throw new TypeError('cageAddress: not an EVM address (0x + 40 hex, valid checksum)');
  }
  const transaction = (from: Address, to: Address, data: Hex): CageTransactionRequest => ({
    chainId: context.chainId,
    from,
    to,
    data,
    value: '0',
  });
  return {
    chain: config.chain,
    chainId: context.chainId,
    label: context.label,
    address,
    rpcConfigured: context.rpc !== undefined,
    usdc: context.usdc,
    readState: async (owner, alsoVenues) => {
      if (!context.rpc || !address) throw new Error('readState: no cage or RPC configured');
      return readCageState(context.rpc, address, owner, alsoVenues);
    },
    transaction,
    simulateLegs: (query) => simulateEvmLegs(context, query),
    approval: (owner, amount) =>
      address && context.usdc
        ? transaction(
            owner,
            context.usdc,
            encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [address, amount] }),
          )
        : undefined,
  };
}
