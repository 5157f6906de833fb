import type { PublicKey } from '@solana/web3.js';
import type { Blocker, VenueOnChain } from '@yieldrouter/schemas';
import { resolveConfiguredKeys } from './resolveConfiguredKeys';
import type { KeyRequirement } from './resolveConfiguredKeys';
import type { SolanaAdapterConfig } from './solanaAdapterConfig';
import type { SolanaVenueProtocol } from './venues/solanaVenueProtocol';
import { solanaVenueProtocol } from './venues/solanaVenueProtocols';

const router = (config: SolanaAdapterConfig) =>
  ({
    programId: { value: config.programId, code: 'router_not_configured', field: 'programId' },
    yieldRouter: { value: config.yieldRouter, code: 'router_not_configured', field: 'yieldRouter' },
    adapterRegistry: {
      value: config.adapterRegistry,
      code: 'router_not_configured',
      field: 'adapterRegistry',
    },
    usdcMint: { value: config.usdcMint, code: 'asset_not_configured', field: 'usdcMint' },
  }) satisfies Record<string, KeyRequirement>;

/**
 * Keys of a leg between the owner and the router vault: the router program's `deposit` or
 * `withdraw` (both debit or credit the owner's position PDA of that program).
 */
export function routerVaultKeys(config: SolanaAdapterConfig) {
  const { programId, yieldRouter, usdcMint } = router(config);
  return resolveConfiguredKeys({ programId, yieldRouter, usdcMint });
}

/** A venue is only reachable on Solana through our router's adapters. */
export function venueStandardBlocker(venue: VenueOnChain): Blocker | undefined {
  if (venue.chain !== 'solana') {
    return {
      code: 'venue_not_configured',
      message: `venue ${venue.venueId} is on ${venue.chain}, not Solana`,
      field: 'chain',
      details: { venueId: venue.venueId },
    };
  }
  if (venue.standard !== 'router-adapter') {
    return {
      code: 'venue_not_configured',
      message: `venue ${venue.venueId}: ${venue.standard} is not a Solana standard`,
      field: 'standard',
      details: { venueId: venue.venueId },
    };
  }
  return undefined;
}

/** A venue's protocol and its parsed ids (`ids.<name>` of the protocol's `idNames`). */
export type VenueProtocolKeys =
  | {
      readonly status: 'ok';
      readonly protocol: SolanaVenueProtocol;
      readonly ids: Readonly<Record<string, PublicKey>>;
    }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

/**
 * The protocol a Solana venue speaks and every id it names, each missing or malformed one a
 * `venue_not_configured` blocker naming `ids.<name>`.
 */
export function venueProtocolKeys(venue: VenueOnChain): VenueProtocolKeys {
  const standard = venueStandardBlocker(venue);
  if (standard) return { status: 'blocked', blockers: [standard] };
  const found = solanaVenueProtocol(venue);
  if ('blocker' in found) return { status: 'blocked', blockers: [found.blocker] };
  const { protocol } = found;
  const requirements: Record<string, KeyRequirement> = {};
  for (const name of protocol.idNames) {
    requirements[name] = {
      value: venue.ids[name],
      code: 'venue_not_configured',
      field: `ids.${name}`,
      details: { venueId: venue.venueId },
    };
  }
  const resolved = resolveConfiguredKeys(requirements);
  if (resolved.status === 'blocked') return resolved;
  return { status: 'ok', protocol, ids: resolved.keys };
}

/** The keys of a venue leg: the router's, the venue's protocol and its parsed ids. */
export type VenueKeys =
  | {
      readonly status: 'ok';
      readonly router: Readonly<
        Record<'programId' | 'yieldRouter' | 'adapterRegistry' | 'usdcMint', PublicKey>
      >;
      readonly protocol: SolanaVenueProtocol;
      readonly ids: Readonly<Record<string, PublicKey>>;
    }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

/**
 * Keys of a venue leg (`deposit_to_venue` / `withdraw_from_venue` of the router program): the
 * router's settings and the venue's protocol ids; every missing one is reported together.
 */
export function venueKeys(config: SolanaAdapterConfig, venue: VenueOnChain): VenueKeys {
  const venueSide = venueProtocolKeys(venue);
  if (
    venueSide.status === 'blocked' &&
    !venueSide.blockers.some((b) => b.field?.startsWith('ids.'))
  ) {
    return venueSide;
  }
  const routerSide = resolveConfiguredKeys(router(config));
  const blockers = [
    ...(routerSide.status === 'blocked' ? routerSide.blockers : []),
    ...(venueSide.status === 'blocked' ? venueSide.blockers : []),
  ];
  if (routerSide.status === 'blocked' || venueSide.status === 'blocked') {
    return { status: 'blocked', blockers };
  }
  return {
    status: 'ok',
    router: routerSide.keys,
    protocol: venueSide.protocol,
    ids: venueSide.ids,
  };
}
