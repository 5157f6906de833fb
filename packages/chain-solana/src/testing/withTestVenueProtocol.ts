import type { VenueOnChain } from '@yieldrouter/schemas';
import type * as VenueProtocols from '../venues/solanaVenueProtocols';
import { TEST_VENUE_PROTOCOL } from './testVenueProtocol';

/** The venue id a test gives a venue that speaks our test venue's layout (not in the catalog). */
export const TEST_VENUE_ID = 'test-venue';

/**
 * `venues/solanaVenueProtocols` with the test venue's layout reachable as `test-venue`, for tests
 * of the router's generic venue path (no catalog venue speaks it):
 *
 * @example
 * jest.mock('./venues/solanaVenueProtocols', () =>
 *   jest.requireActual('./testing/withTestVenueProtocol').withTestVenueProtocol(),
 * );
 */
export function withTestVenueProtocol(): typeof VenueProtocols {
  const actual = jest.requireActual<typeof VenueProtocols>('../venues/solanaVenueProtocols');
  return {
    ...actual,
    solanaVenueProtocol: (venue: VenueOnChain) =>
      venue.venueId === TEST_VENUE_ID
        ? { protocol: TEST_VENUE_PROTOCOL }
        : actual.solanaVenueProtocol(venue),
  };
}
