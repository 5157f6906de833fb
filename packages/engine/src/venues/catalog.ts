import { EVM_VENUE_IDS } from '@yieldrouter/chain-evm';
import { SOLANA_VENUE_PROTOCOLS } from '@yieldrouter/chain-solana';
import { SUI_VENUE_IDS, SUI_VENUE_OPTIONAL_IDS } from '@yieldrouter/chain-sui';
import type { Chain, DepositRounding, VenueStandard } from '@yieldrouter/schemas';
import { depositRoundingMicros, withdrawRoundingMicros } from '@yieldrouter/schemas';

/**
 * The venue catalog, versioned. Seeded into the database at start (`seedVenueCatalog`): new
 * venues get a permanent opportunity id; known venues keep theirs. On-chain ids are NOT here:
 * they come from configuration (`SVC_VENUE_IDS`), and a venue missing one is not ready.
 *
 * Venue ids are bare protocol names, unique across chains (no chain or asset suffix).
 */
export const VENUE_CATALOG_VERSION = 1;

export interface VenueCatalogEntry {
  readonly id: string;
  readonly protocol: string;
  readonly chain: Chain;
  readonly asset: 'USDC';
  /** ready: vetted for deposits once its ids are configured; listed: shown, not enterable. */
  readonly readiness: 'ready' | 'listed' | 'planned';
  readonly standard: VenueStandard;
  readonly wave: number;
  readonly priority: number;
  readonly actions: readonly ('deposit' | 'withdraw' | 'harvest')[];
  readonly minDepositMicros: bigint;
  /** Why a venue is not `ready` (documented; docs/venues/). */
  readonly notReadyReason?: string;
}

const LENDING = ['deposit', 'withdraw', 'harvest'] as const;

export const VENUE_CATALOG: readonly VenueCatalogEntry[] = [
  // Sui (Executable home): lending markets entered through their own public functions.
  {
    id: 'suilend',
    protocol: 'Suilend',
    chain: 'sui',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'router-adapter',
    wave: 1,
    priority: 1,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'navi',
    protocol: 'NAVI Protocol',
    chain: 'sui',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'router-adapter',
    wave: 1,
    priority: 2,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'scallop',
    protocol: 'Scallop',
    chain: 'sui',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'router-adapter',
    wave: 1,
    priority: 3,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  // Solana (Executable home).
  {
    id: 'kamino',
    protocol: 'Kamino Lend',
    chain: 'solana',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'router-adapter',
    wave: 1,
    priority: 4,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'jupiter-lend',
    protocol: 'Jupiter Lend',
    chain: 'solana',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'router-adapter',
    wave: 1,
    priority: 5,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'save',
    protocol: 'Save',
    chain: 'solana',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'router-adapter',
    wave: 1,
    priority: 6,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'marginfi',
    protocol: 'marginfi',
    chain: 'solana',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'router-adapter',
    wave: 1,
    priority: 7,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'drift',
    protocol: 'Drift',
    chain: 'solana',
    asset: 'USDC',
    readiness: 'listed',
    standard: 'router-adapter',
    wave: 2,
    priority: 8,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
    notReadyReason:
      "Drift's program has disabled its instructions upstream (protocol-v2 v2.162.0 compiles none: every instruction is commented out), so it takes no deposits and no withdrawals; no Solana protocol adapter speaks it",
  },
  // Base and Arbitrum (Map: discover and prepare only; never write-ready).
  {
    id: 'aave-v3',
    protocol: 'Aave v3',
    chain: 'base',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'aave-v3',
    wave: 2,
    priority: 7,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'morpho',
    protocol: 'Morpho (MetaMorpho vault)',
    chain: 'base',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'erc4626',
    wave: 2,
    priority: 8,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'fluid',
    protocol: 'Fluid (fToken)',
    chain: 'arbitrum',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'erc4626',
    wave: 3,
    priority: 9,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
  {
    id: 'silo',
    protocol: 'Silo v2',
    chain: 'arbitrum',
    asset: 'USDC',
    readiness: 'ready',
    standard: 'erc4626',
    wave: 3,
    priority: 10,
    actions: LENDING,
    minDepositMicros: 1_000_000n,
  },
];

const isSuiVenue = (venueId: string | undefined): venueId is keyof typeof SUI_VENUE_IDS =>
  venueId !== undefined && venueId in SUI_VENUE_IDS;

/**
 * On-chain ids a venue needs (names used in `SVC_VENUE_IDS`): by standard; Sui venues name the
 * protocol objects their calls take (chain-sui's `SUI_VENUE_IDS`), and Solana venues the ids of
 * the protocol their adapter speaks through our router (chain-solana's `SOLANA_VENUE_PROTOCOLS`,
 * e.g. kamino: klend's program, lending market, reserve, supply vault and cToken mint). A venue
 * with no protocol adapter (drift) needs none and is never ready.
 */
export function requiredVenueIds(
  chain: Chain,
  standard: VenueStandard,
  venueId: string,
): readonly string[] {
  switch (standard) {
    case 'erc4626':
      // A Silo v2 market is named by its SiloConfig; its USDC silo is read on chain.
      return Object.hasOwn(EVM_VENUE_IDS, venueId)
        ? (EVM_VENUE_IDS[venueId]?.required ?? [])
        : ['vault'];
    case 'aave-v3':
      return ['pool', 'aToken'];
    case 'router-adapter':
      if (chain === 'sui') return isSuiVenue(venueId) ? SUI_VENUE_IDS[venueId] : [];
      return Object.hasOwn(SOLANA_VENUE_PROTOCOLS, venueId)
        ? (SOLANA_VENUE_PROTOCOLS[venueId]?.idNames ?? [])
        : [];
  }
}

/**
 * Every id name a venue takes in `SVC_VENUE_IDS` or a profile: the ids it needs, and the ones it
 * may be given but finds on chain itself (Suilend's `reserveIndex`, Silo's `vault`: checked there
 * when given).
 */
export function configurableVenueIds(
  chain: Chain,
  standard: VenueStandard,
  venueId: string,
): readonly string[] {
  const optional =
    chain === 'sui' && standard === 'router-adapter' && isSuiVenue(venueId)
      ? SUI_VENUE_OPTIONAL_IDS[venueId]
      : standard === 'erc4626' && Object.hasOwn(EVM_VENUE_IDS, venueId)
        ? (EVM_VENUE_IDS[venueId]?.optional ?? [])
        : [];
  return [...requiredVenueIds(chain, standard, venueId), ...optional];
}

/**
 * How a venue's deposit (withdrawal) rounds (`DepositRounding`): what its protocol adapter
 * documents from the protocol's source, per direction (kamino: klend's floored cTokens paid
 * rounded up, its redeemed cTokens paid rounded down; jupiter-lend and save: deposits exact,
 * redeemed receipts paid rounded down); `exact` for every other.
 */
export function venueRounding(
  chain: string,
  venueId: string | null | undefined,
  action: 'deposit' | 'withdraw',
): DepositRounding {
  if (chain !== 'solana' || !venueId || !Object.hasOwn(SOLANA_VENUE_PROTOCOLS, venueId)) {
    return 'exact';
  }
  const protocol = SOLANA_VENUE_PROTOCOLS[venueId];
  return (action === 'deposit' ? protocol?.depositRounding : protocol?.withdrawRounding) ?? 'exact';
}

/**
 * How many micros a venue leg may be off its amount in the owner's favour, by the venue's
 * rounding for that direction (`venueRounding`): a deposit that took `amountMicros` for
 * `receipts` minted may have taken that much less than asked, a withdrawal that paid
 * `amountMicros` for `receipts` burnt that much more; 0 for any other action.
 */
export function venueRoundingMicros(
  chain: string,
  venueId: string | null | undefined,
  action: string,
  amountMicros: bigint,
  receipts: bigint,
): bigint {
  if (action === 'deposit') {
    return depositRoundingMicros(venueRounding(chain, venueId, action), amountMicros, receipts);
  }
  if (action === 'withdraw') {
    return withdrawRoundingMicros(venueRounding(chain, venueId, action), amountMicros, receipts);
  }
  return 0n;
}
