import { normalizeStructTag } from '@mysten/sui/utils';

/**
 * How the Sui adapter reaches the chain. Ids come from configuration. No leg calls a package of
 * ours: venue legs call the protocols' functions (ids per venue), wallet legs call nothing.
 */
export interface SuiAdapterConfig {
  /** JSON-RPC endpoint; undefined makes every read `unavailable` with `rpc_not_configured`. */
  readonly rpcUrl: string | undefined;
  readonly network: 'mainnet' | 'testnet' | 'devnet' | 'localnet';
  /** Per RPC call, body included. */
  readonly timeoutMs: number;
  /** Server broadcast of owner-signed bytes; off means `broadcast` is refused. */
  readonly broadcastEnabled: boolean;
  /** USDC's Move coin type (`0x…::usdc::USDC`); undefined blocks USDC legs and reads. */
  readonly usdcCoinType: string | undefined;
}

/** The configuration after `resolveConfig`: ids and the USDC type in canonical form. */
export interface ResolvedSuiConfig extends SuiAdapterConfig {
  readonly canonical: true;
}

/** SUI's coin type and decimals (mist). */
export const SUI_COIN_TYPE = '0x2::sui::SUI';
export const SUI_DECIMALS = 9;

function canonicalCoinType(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return normalizeStructTag(value);
  } catch {
    throw new Error(
      'SuiAdapterConfig.usdcCoinType: must be a Move type 0x<address>::<module>::<name>',
    );
  }
}

/**
 * Checks the configuration once, at construction. A missing id is fine (the legs that need it
 * are blocked); a malformed one is a deployment mistake and throws.
 */
export function resolveConfig(config: SuiAdapterConfig): ResolvedSuiConfig {
  if (!Number.isInteger(config.timeoutMs) || config.timeoutMs <= 0) {
    throw new Error('SuiAdapterConfig.timeoutMs: must be a positive integer');
  }
  return {
    ...config,
    canonical: true,
    usdcCoinType: canonicalCoinType(config.usdcCoinType),
  };
}
