import { VENUE_CATALOG } from './catalog';

/**
 * The one line `pnpm start` logs and `/console` shows when no venue is ready: which setting makes
 * a venue ready, where the real ids are, and how to see the whole flow without them.
 */
export const NO_VENUE_READY_HINT =
  'No venue is ready: set its on-chain ids with SVC_VENUE_IDS, or SVC_PROFILE=mainnet for the real mainnet ids (docs/profiles.md); `pnpm demo` runs the whole flow on local chains.';

/**
 * Why a venue is not ready in this deployment, naming the setting that would make it ready;
 * null when it is ready.
 *
 * @example
 * notReadyReason('aave-v3', 'ready', ['pool', 'aToken'])
 * // 'needs SVC_VENUE_IDS.aave-v3.pool, SVC_VENUE_IDS.aave-v3.aToken (or SVC_PROFILE: docs/profiles.md)'
 */
export function notReadyReason(
  venueId: string,
  readiness: string,
  missingIds: readonly string[],
): string | null {
  if (readiness === 'listed') {
    const why = VENUE_CATALOG.find((venue) => venue.id === venueId)?.notReadyReason;
    return `listed in the catalog: shown on the map, never enterable${why ? ` (${why})` : ''}`;
  }
  if (readiness !== 'ready') return `${readiness} in the catalog: not yet integrated`;
  if (missingIds.length === 0) return null;
  const settings = missingIds.map((name) => `SVC_VENUE_IDS.${venueId}.${name}`).join(', ');
  return `needs ${settings} (or SVC_PROFILE: docs/profiles.md)`;
}
