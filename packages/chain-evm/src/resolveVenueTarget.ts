import { describeBlockerCode } from '@yieldrouter/schemas';
import type { Blocker, Unavailable, VenueOnChain } from '@yieldrouter/schemas';
import type { Address } from 'viem';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import type { EvmRpc } from './evmRpc';
import { normalizeEvmAddress } from './normalizeEvmAddress';

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
 * aave-v3 needs `pool` and `aToken` (receipts and position value are read from the aToken).
 *
 * @example
 * resolveVenueTarget({ venueId: 'v', chain: 'base', standard: 'erc4626', ids: { vault: '0x…' } })
 * // { status: 'ok', target: { standard: 'erc4626', vault: '0x…' } }
 */
export function resolveVenueTarget(venue: VenueOnChain): VenueTargetResolution {
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
 * A venue ready to be read: its contracts and the chain's RPC, or why it cannot be read (a
 * blocked target, no RPC configured). `what` names the read in the detail.
 */
export function readableVenue(
  context: EvmContext,
  venue: VenueOnChain,
  what: string,
): { readonly status: 'ok'; readonly rpc: EvmRpc; readonly target: VenueTarget } | Unavailable {
  const resolved = resolveVenueTarget(venue);
  if (resolved.status === 'blocked') return venueUnreadable(venue, resolved.blockers, what);
  if (!context.rpc) return rpcNotConfigured(context, what);
  return { status: 'ok', rpc: context.rpc, target: resolved.target };
}
