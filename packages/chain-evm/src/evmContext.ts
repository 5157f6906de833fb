import { EVM_CHAIN_IDS } from '@yieldrouter/schemas';
import type { Address } from 'viem';
import { createEvmRpc } from './evmRpc';
import type { EvmRpc } from './evmRpc';
import { normalizeEvmAddress } from './normalizeEvmAddress';

/** The EVM chains the service maps (never executes on): Base and Arbitrum One. */
export type EvmChain = keyof typeof EVM_CHAIN_IDS;

export interface EvmAdapterConfig {
  readonly chain: EvmChain;
  /** Unset: every read is `unavailable` with `rpc_not_configured`. */
  readonly rpcUrl: string | undefined;
  /** Upper bound on every RPC call, in milliseconds. */
  readonly timeoutMs: number;
  /** USDC on this chain; unset blocks USDC legs and reads as `asset_not_configured`. */
  readonly usdcAddress: string | undefined;
  /** Our registry contract; unset blocks router legs with `router_not_configured`. */
  readonly registryAddress: string | undefined;
}

/** What every adapter function needs: configuration, checked once. */
export interface EvmContext {
  readonly chain: EvmChain;
  readonly chainId: number;
  /** 'Base' or 'Arbitrum', for summaries. */
  readonly label: string;
  readonly rpc: EvmRpc | undefined;
  readonly usdc: Address | undefined;
  readonly registry: Address | undefined;
}

const LABELS: Readonly<Record<EvmChain, string>> = { base: 'Base', arbitrum: 'Arbitrum' };

function configuredAddress(value: string | undefined, name: string): Address | undefined {
  if (value === undefined) return undefined;
  const address = normalizeEvmAddress(value);
  // A configured id that is not an address is a deployment mistake: refuse to start with it.
  if (!address) throw new TypeError(`${name}: not an EVM address (0x + 40 hex, valid checksum)`);
  return address;
}

/**
 * Checks the configuration and builds the RPC client. No RPC call happens here.
 *
 * @example
 * createEvmContext({ chain: 'base', rpcUrl: undefined, timeoutMs: 2_000, usdcAddress: undefined, registryAddress: undefined })
 */
export function createEvmContext(config: EvmAdapterConfig): EvmContext {
  if (!Number.isInteger(config.timeoutMs) || config.timeoutMs <= 0) {
    throw new TypeError('timeoutMs: must be a positive integer');
  }
  return {
    chain: config.chain,
    chainId: EVM_CHAIN_IDS[config.chain],
    label: LABELS[config.chain],
    rpc:
      config.rpcUrl === undefined
        ? undefined
        : createEvmRpc({ rpcUrl: config.rpcUrl, timeoutMs: config.timeoutMs }),
    usdc: configuredAddress(config.usdcAddress, 'usdcAddress'),
    registry: configuredAddress(config.registryAddress, 'registryAddress'),
  };
}

/** The `unavailable` answer for a read on a chain without an RPC URL. */
export function rpcNotConfigured(context: EvmContext, what: string) {
  return {
    status: 'unavailable',
    reason: 'rpc_not_configured',
    detail: `${what}: no RPC URL is configured for ${context.label}`,
  } as const;
}
