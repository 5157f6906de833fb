import type { Chain } from '@yieldrouter/schemas';
import type { ChainSettingGap } from '../venues/venueConfig';

/** The settings `chainSettingGaps` looks at (a subset of the service's settings). */
export interface ChainSettingGapsInput {
  readonly SVC_SOLANA_PROGRAM_ID?: string | undefined;
  readonly SVC_SOLANA_YIELD_ROUTER?: string | undefined;
  readonly SVC_SOLANA_ADAPTER_REGISTRY?: string | undefined;
  readonly SVC_SOLANA_RPC_URL?: string | undefined;
}

/**
 * Chain-wide settings a venue leg needs that are not set, with the blocker the chain adapter
 * answers without them. Only Solana has any: its venues are reached through our router program
 * (its three ids) and each leg reads a recent blockhash (the RPC). Sui and EVM venue legs call the
 * protocol's own contracts, offline, with the USDC setting, which has a default.
 *
 * @example
 * chainSettingGaps({}).solana?.[0] // { setting: 'SVC_SOLANA_PROGRAM_ID', blocker: 'router_not_configured' }
 */
export function chainSettingGaps(
  env: ChainSettingGapsInput,
): Partial<Record<Chain, readonly ChainSettingGap[]>> {
  const solana: ChainSettingGap[] = [];
  const routerIds = [
    'SVC_SOLANA_PROGRAM_ID',
    'SVC_SOLANA_YIELD_ROUTER',
    'SVC_SOLANA_ADAPTER_REGISTRY',
  ] as const;
  for (const setting of routerIds) {
    if (!env[setting]) solana.push({ setting, blocker: 'router_not_configured' });
  }
  if (!env.SVC_SOLANA_RPC_URL) {
    solana.push({ setting: 'SVC_SOLANA_RPC_URL', blocker: 'rpc_unavailable' });
  }
  return solana.length > 0 ? { solana } : {};
}
