import { describeBlockerCode } from '@yieldrouter/schemas';
import type { Blocker, VenueOnChain } from '@yieldrouter/schemas';
import { erc4626Abi, parseAbi } from 'viem';
import type { Address } from 'viem';
import { callView } from './callView';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import type { VenueTargetResolution } from './resolveVenueTarget';

/**
 * Venues that are a Silo v2 market: the market is named by its `SiloConfig` (id `siloConfig`,
 * published per market in silo-finance/silo-contracts-v2
 * `silo-core/deploy/silo/_siloDeployments.json`), and the USDC silo (an ERC-4626 vault) is found
 * on chain. `vault` may be configured; it is then checked against the market when readable.
 */
export const EVM_VENUE_IDS: Readonly<
  Record<string, { readonly required: readonly string[]; readonly optional: readonly string[] }>
> = { silo: { required: ['siloConfig'], optional: ['vault'] } };

/**
 * The two calls we make on a SiloConfig, as silo-finance/silo-contracts-v2 declares them
 * (`silo-core/contracts/interfaces/ISiloConfig.sol` @ 0253d0daff37b50b1bea9aa3932163d597022f38:
 * `function getSilos() external view returns (address, address)` and
 * `function getAssetForSilo(address _silo) external view returns (address asset)`). Each silo is
 * `ISilo is IERC20, IERC4626, …` (`ISilo.sol`), so its asset is ERC-4626 `asset()`.
 */
export const siloConfigAbi = parseAbi([
  'function getSilos() view returns (address, address)',
  'function getAssetForSilo(address _silo) view returns (address asset)',
]);

/** Whether a venue is a Silo v2 market (its vault is found from its SiloConfig). */
export function isSiloMarket(venue: VenueOnChain): boolean {
  return venue.standard === 'erc4626' && Object.hasOwn(EVM_VENUE_IDS, venue.venueId);
}

/**
 * The USDC silo of a Silo v2 market: `SiloConfig.getSilos()`, then the silo whose ERC-4626
 * `asset()` is the chain's USDC. Fail closed: a missing or malformed `siloConfig` or `vault`, a
 * market without a USDC silo, or a configured `vault` that is not that silo blocks with
 * `venue_not_configured` naming the id; a market that cannot be read blocks with
 * `rpc_unavailable` unless a `vault` is configured (then it is used as given: the deposit
 * reverts on chain if it is wrong). Never a guessed address.
 *
 * @example
 * await resolveSiloVault(context, { venueId: 'silo', chain: 'arbitrum', standard: 'erc4626',
 *   ids: { siloConfig: '0xDc62…' } })
 * // { status: 'ok', target: { standard: 'erc4626', vault: '0x…' } } (silo1, USDC)
 */
export async function resolveSiloVault(
  context: EvmContext,
  venue: VenueOnChain,
): Promise<VenueTargetResolution> {
  const blockers: Blocker[] = [];
  const rawConfig = venue.ids.siloConfig;
  const siloConfig = rawConfig === undefined ? undefined : normalizeEvmAddress(rawConfig);
  if (!siloConfig) {
    blockers.push(
      notConfigured(
        venue,
        'siloConfig',
        rawConfig === undefined ? 'Missing: siloConfig.' : 'siloConfig is not an EVM address.',
      ),
    );
  }
  const rawVault = venue.ids.vault;
  const configured = rawVault === undefined ? undefined : normalizeEvmAddress(rawVault);
  if (rawVault !== undefined && !configured) {
    blockers.push(notConfigured(venue, 'vault', 'vault is not an EVM address.'));
  }
  if (!siloConfig || blockers.length > 0) return { status: 'blocked', blockers };

  const found = await readUsdcSilo(context, siloConfig);
  if (found.status === 'unread') {
    if (configured) return vaultTarget(configured);
    return { status: 'blocked', blockers: [unread(context, venue, siloConfig, found.detail)] };
  }
  if (found.status === 'none') {
    return {
      status: 'blocked',
      blockers: [
        notConfigured(
          venue,
          'siloConfig',
          `SiloConfig ${siloConfig} has no USDC silo (its silos hold ${found.assets.join(', ')}).`,
        ),
      ],
    };
  }
  if (configured && configured !== found.silo) {
    return {
      status: 'blocked',
      blockers: [
        notConfigured(
          venue,
          'vault',
          `vault ${configured} is not the USDC silo of SiloConfig ${siloConfig} (${found.silo}).`,
        ),
      ],
    };
  }
  return vaultTarget(found.silo);
}

function vaultTarget(vault: Address): VenueTargetResolution {
  return { status: 'ok', target: { standard: 'erc4626', vault } };
}

type UsdcSilo =
  | { readonly status: 'ok'; readonly silo: Address }
  | { readonly status: 'none'; readonly assets: readonly Address[] }
  | { readonly status: 'unread'; readonly detail: string };

async function readUsdcSilo(context: EvmContext, siloConfig: Address): Promise<UsdcSilo> {
  const rpc = context.rpc;
  const usdc = context.usdc;
  if (!rpc) return { status: 'unread', detail: `no RPC URL is configured for ${context.label}` };
  if (!usdc) return { status: 'unread', detail: `no USDC address on ${context.label}` };
  try {
    const silos = await callView(rpc, siloConfig, siloConfigAbi, 'getSilos', []);
    const assets: Address[] = [];
    for (const silo of silos) {
      const asset = normalizeEvmAddress(await callView(rpc, silo, erc4626Abi, 'asset', []));
      if (!asset) return { status: 'unread', detail: `silo ${silo}: asset() is not an address` };
      if (asset === usdc) return { status: 'ok', silo: normalizeEvmAddress(silo) ?? silo };
      assets.push(asset);
    }
    return { status: 'none', assets };
  } catch (error) {
    return { status: 'unread', detail: error instanceof Error ? error.message : String(error) };
  }
}

function notConfigured(venue: VenueOnChain, id: string, why: string): Blocker {
  return {
    code: 'venue_not_configured',
    message: `${describeBlockerCode('venue_not_configured')} ${why}`,
    field: `venue.ids.${id}`,
    details: { venueId: venue.venueId, id },
  };
}

function unread(context: EvmContext, venue: VenueOnChain, siloConfig: Address, why: string) {
  return {
    code: 'rpc_unavailable',
    message: `${describeBlockerCode('rpc_unavailable')} SiloConfig ${siloConfig} on ${context.label} could not be read (${why}); its USDC silo is never guessed.`,
    details: { venueId: venue.venueId, chain: context.chain, siloConfig },
  } satisfies Blocker;
}
