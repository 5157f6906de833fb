import type { Blocker, VenueOnChain } from '@yieldrouter/schemas';
import { JUPITER_LEND_PROTOCOL } from './jupiterLendProtocol';
import { KLEND_PROTOCOL } from './klendProtocol';
import { MARGINFI_PROTOCOL } from './marginfiProtocol';
import { SAVE_PROTOCOL } from './saveProtocol';
import type { SolanaVenueProtocol } from './solanaVenueProtocol';

/**
 * Which protocol each Solana venue of the catalog speaks through our router (one line per venue;
 * docs/venues/solana.md). A venue not here (drift) has no adapter: it is listed, never
 * ready, and no leg is built for it. The test venue's layout (`TEST_VENUE_PROTOCOL`) is a test
 * fixture only and is never a catalog venue's protocol.
 */
export const SOLANA_VENUE_PROTOCOLS: Readonly<Record<string, SolanaVenueProtocol>> = {
  kamino: KLEND_PROTOCOL,
  'jupiter-lend': JUPITER_LEND_PROTOCOL,
  save: SAVE_PROTOCOL,
  marginfi: MARGINFI_PROTOCOL,
};

/** The protocol of a Solana venue, or the blocker naming why there is none. */
export function solanaVenueProtocol(
  venue: VenueOnChain,
): { readonly protocol: SolanaVenueProtocol } | { readonly blocker: Blocker } {
  const protocol = Object.hasOwn(SOLANA_VENUE_PROTOCOLS, venue.venueId)
    ? SOLANA_VENUE_PROTOCOLS[venue.venueId]
    : undefined;
  if (protocol) return { protocol };
  return {
    blocker: {
      code: 'venue_not_configured',
      message: `venue ${venue.venueId} has no Solana protocol adapter`,
      field: 'venueId',
      details: { venueId: venue.venueId },
    },
  };
}
