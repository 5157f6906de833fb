import { describeBlockerCode } from '@yieldrouter/schemas';
import type { Blocker } from '@yieldrouter/schemas';
import type { EvmContext } from './evmContext';

/**
 * Why a leg into or out of the router cannot be built on an EVM chain. Base and Arbitrum are
 * Map chains: the registry holds fee configuration only, and no router deposit path exists.
 * Without a registry address the cause is reported first (`router_not_configured`).
 *
 * @example
 * routerBlocker(context) // { code: 'chain_not_write_ready', … }
 */
export function routerBlocker(context: EvmContext): Blocker {
  if (!context.registry) {
    return {
      code: 'router_not_configured',
      message: describeBlockerCode('router_not_configured'),
      field: 'registryAddress',
      details: { chain: context.chain },
    };
  }
  return {
    code: 'chain_not_write_ready',
    message: `${describeBlockerCode('chain_not_write_ready')} ${context.label} has no router deposit path; target a venue.`,
    details: { chain: context.chain },
  };
}

/**
 * USDC is not configured on this chain: legs that approve, supply or withdraw USDC by address
 * cannot be built.
 *
 * @example
 * usdcBlocker(context) // { code: 'asset_not_configured', field: 'usdcAddress', … }
 */
export function usdcBlocker(context: EvmContext): Blocker {
  return {
    code: 'asset_not_configured',
    message: `${describeBlockerCode('asset_not_configured')} No USDC address on ${context.label}.`,
    field: 'usdcAddress',
    details: { chain: context.chain, asset: 'USDC' },
  };
}
