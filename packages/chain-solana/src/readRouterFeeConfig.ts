import { PublicKey } from '@solana/web3.js';
import type { Blocker } from '@yieldrouter/schemas';
import { SolanaBadResponseError, describeRpcFailure } from './describeRpcFailure';
import type { SolanaContext } from './solanaContext';

/**
 * The router registry's layout (yield_router.c): magic `YRADPTR3`, bump, count, 16 entries of 72
 * bytes from byte 24, then the yield skim (u64 bps) and the treasury wallet (32 bytes).
 */
const REGISTRY_MAGIC = 'YRADPTR3';
const REGISTRY_SKIM_BPS = 24 + 16 * 72;
const REGISTRY_TREASURY = REGISTRY_SKIM_BPS + 8;
export const ROUTER_REGISTRY_LENGTH = REGISTRY_TREASURY + 32;

/** The fee configuration every venue withdrawal through the router pays its skim by. */
export interface RouterFeeConfig {
  readonly skimBps: number;
  /** The treasury wallet: the token owner of the account the skim is paid to. */
  readonly treasury: PublicKey;
}

/**
 * Decodes the registry account's fee configuration; undefined while the operator has not set one
 * (`set_fee_config`), when the router refuses venue legs. Throws SolanaBadResponseError for an
 * account that is not a registry of this layout.
 *
 * @example
 * decodeRouterFeeConfig(registryData) // { skimBps: 500, treasury }
 */
export function decodeRouterFeeConfig(data: Uint8Array): RouterFeeConfig | undefined {
  const bytes = Buffer.from(data);
  if (
    bytes.length !== ROUTER_REGISTRY_LENGTH ||
    bytes.subarray(0, 8).toString('latin1') !== REGISTRY_MAGIC
  ) {
    throw new SolanaBadResponseError('the adapter registry is not a yield_router registry (v3)');
  }
  const treasury = bytes.subarray(REGISTRY_TREASURY, REGISTRY_TREASURY + 32);
  if (treasury.every((byte) => byte === 0)) return undefined;
  return {
    skimBps: Number(bytes.readBigUInt64LE(REGISTRY_SKIM_BPS)),
    treasury: new PublicKey(treasury),
  };
}

/**
 * Reads the fee configuration from the router's registry account: the chain, not a setting, is
 * what the router enforces, so the leg names the treasury the registry names. A registry without
 * one blocks the leg (`router_not_configured`, field `treasury`); a failed read is
 * `rpc_unavailable`.
 */
export async function readRouterFeeConfig(
  context: SolanaContext,
  adapterRegistry: PublicKey,
): Promise<RouterFeeConfig | { readonly blockers: readonly Blocker[] }> {
  if (context.rpc.status !== 'ok') {
    return { blockers: [{ code: 'rpc_unavailable', message: `Solana: ${context.rpc.detail}` }] };
  }
  try {
    const account = await context.rpc.connection.getAccountInfo(adapterRegistry, 'confirmed');
    if (!account) throw new SolanaBadResponseError('the adapter registry account does not exist');
    const config = decodeRouterFeeConfig(account.data);
    if (config) return config;
    return {
      blockers: [
        {
          code: 'router_not_configured',
          message:
            'the router registry has no treasury yet: the operator sets it with set_fee_config',
          field: 'treasury',
        },
      ],
    };
  } catch (error) {
    const failure = describeRpcFailure(error, 'router registry');
    return {
      blockers: [
        { code: 'rpc_unavailable', message: failure.detail, details: { reason: failure.reason } },
      ],
    };
  }
}
