import { describeBlockerCode } from '@yieldrouter/schemas';
import type { Blocker, Unavailable, VenueOnChain } from '@yieldrouter/schemas';
import type { Address } from 'viem';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import type { EvmRpc } from './evmRpc';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { isSiloMarket, resolveSiloVault } from './siloMarket';

/** The contracts of a venue the adapter can enter and value without custom code. */
export type VenueTarget =
  | { readonly standard: 'erc4626'; readonly vault: Address }
  | { readonly standard: 'aave-v3'; readonly pool: Address; readonly aToken: Address };

export type VenueTargetResolution =
  | { readonly status: 'ok'; readonly target: VenueTarget }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

/**
 * The venue's contract addresses from its configured ids. A missing or malformed id blocks with
 * `venue_not_configured` (field `venue.ids.<name>`); ids are never guessed. erc4626 needs `vault`;
 * aave-v3 needs `pool` and `aToken` (receipts and position value are read from the aToken). A
 * Silo v2 market's vault is its USDC silo, read from its `siloConfig` on chain
 * (`resolveSiloVault`: `rpc_unavailable` when unread and no vault is configured).
 *
 * @example
 * await resolveVenueTarget(context, { venueId: 'v', chain: 'base', standard: 'erc4626', ids: { vault: '0x…' } })
 * // { status: 'ok', target: { standard: 'erc4626', vault: '0x…' } }
 */
export async function resolveVenueTarget(
  context: EvmContext,
  venue: VenueOnChain,
): Promise<VenueTargetResolution> {
  return isSiloMarket(venue) ? resolveSiloVault(context, venue) : resolveConfiguredTarget(venue);
}

function resolveConfiguredTarget(venue: VenueOnChain): VenueTargetResolution {
  if (venue.standard === 'router-adapter') {
    return {
      status: 'blocked',
      blockers: [
        {
          code: 'venue_not_ready',
          message: `${describeBlockerCode('venue_not_ready')} Router-adapter venues exist on Sui and Solana only.`,
          field: 'venue.standard',
          details: { venueId: venue.venueId, standard: venue.standard },
        },
      ],
    };
  }
  const blockers: Blocker[] = [];
  const id = (name: string): Address | undefined => {
    const raw = venue.ids[name];
    const address = raw === undefined ? undefined : normalizeEvmAddress(raw);
    if (!address)
      blockers.push(idBlocker(venue, name, raw === undefined ? 'missing' : 'malformed'));
    return address;
  };
  if (venue.standard === 'erc4626') {
    const vault = id('vault');
    return vault
      ? { status: 'ok', target: { standard: 'erc4626', vault } }
      : { status: 'blocked', blockers };
  }
  const pool = id('pool');
  const aToken = id('aToken');
  return pool && aToken
    ? { status: 'ok', target: { standard: 'aave-v3', pool, aToken } }
    : { status: 'blocked', blockers };
}

function idBlocker(venue: VenueOnChain, name: string, problem: 'missing' | 'malformed'): Blocker {
  return {
    code: 'venue_not_configured',
    message: `${describeBlockerCode('venue_not_configured')} ${
      problem === 'missing' ? `Missing: ${name}.` : `${name} is not an EVM address.`
    }`,
    field: `venue.ids.${name}`,
    details: { venueId: venue.venueId, id: name },
  };
}

/**
 * Why a venue whose target is blocked cannot be read (`what` names the read): a router-adapter
 * venue has no reader on EVM, any other is missing an id.
 */
export function venueUnreadable(
  venue: VenueOnChain,
  blockers: readonly Blocker[],
  what: string,
): Unavailable {
  return {
    status: 'unavailable',
    reason: venue.standard === 'router-adapter' ? 'no_standard_reader' : 'asset_not_configured',
    detail: `${what}: ${blockers.map((blocker) => blocker.message).join(' ')}`,
  };
}

/**
 * Why a venue whose target is blocked cannot be read: its ids (`venueUnreadable`), or, for a
 * venue whose contract is found on chain (a Silo market), the chain that did not answer.
 */
export function targetUnreadable(
  context: EvmContext,
  venue: VenueOnChain,
  blockers: readonly Blocker[],
  what: string,
): Unavailable {
  const unread = blockers.filter((blocker) => blocker.code === 'rpc_unavailable');
  if (unread.length === 0) return venueUnreadable(venue, blockers, what);
  if (!context.rpc) return rpcNotConfigured(context, what);
  return {
    status: 'unavailable',
    reason: 'rpc_error',
    detail: `${what}: ${unread.map((blocker) => blocker.message).join(' ')}`,
  };
}

/**
 * A venue ready to be read: its contracts and the chain's RPC, or why it cannot be read (a
 * blocked target, no RPC configured). `what` names the read in the detail.
 */
export async function readableVenue(
  context: EvmContext,
  venue: VenueOnChain,
  what: string,
): Promise<
  { readonly status: 'ok'; readonly rpc: EvmRpc; readonly target: VenueTarget } | Unavailable
> {
  const resolved = await resolveVenueTarget(context, venue);
  if (resolved.status === 'blocked')
    return targetUnreadable(context, venue, resolved.blockers, what);
  if (!context.rpc) return rpcNotConfigured(context, what);
  return { status: 'ok', rpc: context.rpc, target: resolved.target };
}
