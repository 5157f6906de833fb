import type { BlockerCode, Chain, VenueOnChain, VenueStandard } from '@yieldrouter/schemas';

/** A chain-wide setting every venue leg on a chain needs, and what a plan answers without it. */
export interface ChainSettingGap {
  readonly setting: string;
  readonly blocker: BlockerCode;
}

/** Per-venue configuration: on-chain ids and APY pool ids (never invented, never defaulted). */
export interface VenueConfig {
  /** venueId → id name → value, e.g. `{ morpho: { vault: '0x…' } }`. */
  readonly ids: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** venueId → pool id at the yields source. */
  readonly apyPools: Readonly<Record<string, string>>;
  /** A reading older than this is stale: served as null with reason `stale`. */
  readonly apyMaxAgeMs: number;
  /** Fewer ok samples than this in 30 days → apyMean30dBps null. */
  readonly apyMeanMinSamples: number;
  /**
   * Chain-wide settings missing for venue legs, per chain (`chainSettingGaps`); absent: none.
   * Discovery's `depositable` and `missingSettings` read them.
   */
  readonly chainGaps?: Readonly<Partial<Record<Chain, readonly ChainSettingGap[]>>>;
}

/** A venue as the chain adapters take it: its standard and the on-chain ids configured for it. */
export function venueOnChain(
  venues: VenueConfig,
  venue: { readonly venueId: string; readonly chain: Chain; readonly standard: VenueStandard },
): VenueOnChain {
  return {
    venueId: venue.venueId,
    chain: venue.chain,
    standard: venue.standard,
    ids: venues.ids[venue.venueId] ?? {},
  };
}

/**
 * Samples a mean over `days` needs to be served: `apyMeanMinSamples` is the 30-day requirement,
 * scaled to the window (at least one). The listing and the APY history both use it.
 */
export function windowMinSamples(venues: VenueConfig, days: number): number {
  return Math.max(1, Math.ceil((venues.apyMeanMinSamples * days) / 30));
}
