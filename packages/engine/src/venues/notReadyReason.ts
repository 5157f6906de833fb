import type { BlockerCode } from '@yieldrouter/schemas';
import { VENUE_CATALOG } from './catalog';
import type { ChainSettingGap } from './venueConfig';

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

/** What stops a deposit plan at a venue whatever the request, and the settings that would not. */
export interface DepositGate {
  readonly blocker: BlockerCode | null;
  readonly missingSettings: readonly string[];
  readonly reason: string | null;
}

/**
 * The first blocker a deposit plan answers at a venue before it reads the request, in the order
 * the plan checks them (catalog, the venue's ids, then the chain's own settings), with every
 * missing setting named and where to find real ids or see the flow without them.
 *
 * @example
 * depositGate({ venueId: 'kamino', readiness: 'ready', missingIds: [], takesDeposits: true,
 *   chainGaps: [{ setting: 'SVC_SOLANA_PROGRAM_ID', blocker: 'router_not_configured' }] })
 * // { blocker: 'router_not_configured', missingSettings: ['SVC_SOLANA_PROGRAM_ID'], reason: 'needs SVC_SOLANA_PROGRAM_ID …' }
 */
export function depositGate(venue: {
  readonly venueId: string;
  readonly readiness: string;
  readonly missingIds: readonly string[];
  readonly takesDeposits: boolean;
  readonly chainGaps: readonly ChainSettingGap[];
}): DepositGate {
  const missingSettings = [
    ...venue.missingIds.map((name) => `SVC_VENUE_IDS.${venue.venueId}.${name}`),
    ...venue.chainGaps.map((gap) => gap.setting),
  ];
  if (venue.readiness !== 'ready' || !venue.takesDeposits) {
    const why = notReadyReason(venue.venueId, venue.readiness, []) ?? 'the venue takes no deposits';
    return { blocker: 'venue_not_ready', missingSettings, reason: why };
  }
  const first = venue.missingIds.length > 0 ? 'venue_not_configured' : venue.chainGaps[0]?.blocker;
  if (first === undefined) return { blocker: null, missingSettings, reason: null };
  return {
    blocker: first,
    missingSettings,
    reason: `needs ${missingSettings.join(', ')}; real ids: SVC_PROFILE=mainnet (docs/profiles.md); the whole flow on local chains: \`pnpm demo\``,
  };
}
