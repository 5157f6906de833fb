import type { Blocker, VenueOnChain } from '@yieldrouter/schemas';
import { resolveConfiguredKeys } from './resolveConfiguredKeys';
import type { KeyRequirement, ResolvedKeys } from './resolveConfiguredKeys';
import type { SolanaAdapterConfig } from './solanaAdapterConfig';

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

type VenueKeyName =
  | 'programId'
  | 'yieldRouter'
  | 'adapterRegistry'
  | 'usdcMint'
  | 'adapter'
  | 'receiptMint'
  | 'venueProgram'
  | 'reserve';

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

/** Keys of a venue leg (`deposit_to_venue` / `withdraw_from_venue` of the router program). */
export function venueKeys(
  config: SolanaAdapterConfig,
  venue: VenueOnChain,
): ResolvedKeys<VenueKeyName> {
  const standard = venueStandardBlocker(venue);
  if (standard) return { status: 'blocked', blockers: [standard] };
  // Each id the venue's registration names: `ids.<name>`, reported under that field.
  const venueId = (
    name: 'adapter' | 'receiptMint' | 'venueProgram' | 'reserve',
  ): KeyRequirement => ({
    value: venue.ids[name],
    code: 'venue_not_configured',
    field: `ids.${name}`,
    details: { venueId: venue.venueId },
  });
  return resolveConfiguredKeys<VenueKeyName>({
    ...router(config),
    adapter: venueId('adapter'),
    receiptMint: venueId('receiptMint'),
    venueProgram: venueId('venueProgram'),
    reserve: venueId('reserve'),
  });
}
