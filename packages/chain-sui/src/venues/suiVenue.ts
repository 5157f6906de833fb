import { normalizeStructTag, normalizeSuiAddress, parseStructTag } from '@mysten/sui/utils';
import type { Blocker, VenueOnChain } from '@yieldrouter/schemas';

/**
 * Suilend's USDC reserve in a lending market: `lending_market::deposit_liquidity_and_mint_ctokens`
 * mints `reserve::CToken<P, USDC>` (ids.receiptCoinType) to the owner.
 */
export interface SuilendVenue {
  readonly kind: 'suilend';
  readonly venueId: string;
  /** The package the calls go to (the latest published version). */
  readonly packageId: string;
  /** The shared `LendingMarket<P>`. */
  readonly lendingMarket: string;
  /** `P`, the market's type (its package is Suilend's original package, where types live). */
  readonly lendingMarketType: string;
  /**
   * The USDC reserve's index in `LendingMarket.reserves` when configured (`ids.reserveIndex`);
   * undefined: the leg finds it in the market by USDC's coin type, as @suilend/sdk's
   * `findReserveArrayIndex` does (`locateSuilendReserve`). A configured one is checked there too.
   */
  readonly reserveIndex: bigint | undefined;
  readonly receiptCoinType: string;
}

/**
 * Navi's USDC pool: `incentive_v3::entry_deposit` credits the owner's scaled balance in Navi's
 * `Storage` (no receipt coin); `incentive_v3::withdraw_v2` takes a USDC amount back.
 */
export interface NaviVenue {
  readonly kind: 'navi';
  readonly venueId: string;
  readonly packageId: string;
  readonly storage: string;
  /** The USDC `Pool<USDC>`. */
  readonly pool: string;
  /** USDC's asset id (u8) in Navi's storage. */
  readonly assetId: number;
  readonly incentiveV2: string;
  readonly incentiveV3: string;
  readonly priceOracle: string;
  /** The dynamic-field object holding USDC's `ReserveData` (its supply index). */
  readonly reserve: string;
  /** The table of scaled supply balances by owner (`supply_balance.user_state`). */
  readonly supplyBalances: string;
  /** Navi's original `lending_core` package: where its event types live. */
  readonly lendingCorePackage: string;
}

/**
 * Scallop's USDC market: `mint::mint` mints `reserve::MarketCoin<USDC>` (ids.receiptCoinType)
 * to the owner; `redeem::redeem` burns it for USDC.
 */
export interface ScallopVenue {
  readonly kind: 'scallop';
  readonly venueId: string;
  readonly packageId: string;
  readonly version: string;
  readonly market: string;
  /** The dynamic-field object holding USDC's `BalanceSheet` in the market's vault. */
  readonly balanceSheet: string;
  readonly receiptCoinType: string;
}

export type SuiVenue = SuilendVenue | NaviVenue | ScallopVenue;
export type SuiVenueKind = SuiVenue['kind'];

/** The ids each Sui venue needs (names in `SVC_VENUE_IDS`), by venue id. */
export const SUI_VENUE_IDS = {
  suilend: ['package', 'lendingMarket', 'lendingMarketType', 'receiptCoinType'],
  navi: [
    'package',
    'storage',
    'pool',
    'assetId',
    'incentiveV2',
    'incentiveV3',
    'priceOracle',
    'reserve',
    'supplyBalances',
    'lendingCorePackage',
  ],
  scallop: ['package', 'version', 'market', 'balanceSheet', 'receiptCoinType'],
} as const satisfies Record<SuiVenueKind, readonly string[]>;

/**
 * Ids a Sui venue may be given but does not need: Suilend's `reserveIndex` (no Suilend source
 * publishes it; the leg reads it from the market, and checks a configured one there).
 */
export const SUI_VENUE_OPTIONAL_IDS = {
  suilend: ['reserveIndex'],
  navi: [],
  scallop: [],
} as const satisfies Record<SuiVenueKind, readonly string[]>;

const ID = /^0x[0-9a-fA-F]{1,64}$/;
const UINT = /^\d{1,20}$/;

const isKind = (venueId: string): venueId is SuiVenueKind => venueId in SUI_VENUE_IDS;

function canonicalType(value: string): string | undefined {
  try {
    return normalizeStructTag(value);
  } catch {
    return undefined;
  }
}

/** The struct's address of a canonical type (`0x…::m::T<…>` → `0x…`). */
export function typePackage(type: string): string {
  return normalizeSuiAddress(parseStructTag(type).address);
}

export type SuiVenueOutcome =
  | { readonly status: 'ok'; readonly venue: SuiVenue }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

function missing(venueId: string, name: string, why: string): Blocker {
  return {
    code: 'venue_not_configured',
    field: `ids.${name}`,
    message: `Venue ${venueId}: ids.${name} ${why}.`,
    details: { venueId },
  };
}

/**
 * Reads a Sui venue's ids into the objects its calls take. Every missing or malformed id is a
 * `venue_not_configured` blocker naming `ids.<name>`; a receipt type that is not the protocol's
 * receipt for USDC is one too (a wrong type would mint or burn something else).
 *
 * @example
 * resolveSuiVenue({ venueId: 'scallop', chain: 'sui', standard: 'router-adapter', ids }, usdc)
 * // { status: 'ok', venue: { kind: 'scallop', packageId, version, market, balanceSheet, receiptCoinType } }
 */
export function resolveSuiVenue(venue: VenueOnChain, usdc: string): SuiVenueOutcome {
  const { venueId } = venue;
  if (venue.chain !== 'sui' || !isKind(venueId)) {
    return {
      status: 'blocked',
      blockers: [
        {
          code: 'venue_not_configured',
          field: 'venueId',
          message: `Venue ${venueId} is not a Sui venue this adapter reaches (suilend, navi, scallop).`,
          details: { venueId },
        },
      ],
    };
  }
  const blockers: Blocker[] = [];
  const raw = (name: string) => venue.ids[name];
  const id = (name: string): string => {
    const value = raw(name);
    if (value === undefined || !ID.test(value)) {
      blockers.push(
        missing(venueId, name, value === undefined ? 'is missing' : 'must be 0x + hex'),
      );
      return '';
    }
    return normalizeSuiAddress(value);
  };
  const uint = (name: string, max: bigint): bigint => {
    const value = raw(name);
    if (value === undefined || !UINT.test(value) || BigInt(value) > max) {
      blockers.push(
        missing(venueId, name, value === undefined ? 'is missing' : `must be an integer ≤ ${max}`),
      );
      return 0n;
    }
    return BigInt(value);
  };
  const type = (name: string, check: (type: string) => boolean, what: string): string => {
    const value = raw(name);
    const canonical = value === undefined ? undefined : canonicalType(value);
    if (canonical === undefined || !check(canonical)) {
      blockers.push(missing(venueId, name, value === undefined ? 'is missing' : `must be ${what}`));
      return '';
    }
    return canonical;
  };
  const packageId = id('package');
  let resolved: SuiVenue;
  if (venueId === 'suilend') {
    const lendingMarket = id('lendingMarket');
    const lendingMarketType = type('lendingMarketType', () => true, 'a Move type');
    const reserveIndex =
      raw('reserveIndex') === undefined
        ? undefined
        : uint('reserveIndex', 18_446_744_073_709_551_615n);
    const ctoken = lendingMarketType
      ? normalizeStructTag(
          `${typePackage(lendingMarketType)}::reserve::CToken<${lendingMarketType}, ${usdc}>`,
        )
      : '';
    const receiptCoinType = type(
      'receiptCoinType',
      (value) => value === ctoken,
      `reserve::CToken<${lendingMarketType || 'P'}, ${usdc}>`,
    );
    resolved = {
      kind: 'suilend',
      venueId,
      packageId,
      lendingMarket,
      lendingMarketType,
      reserveIndex,
      receiptCoinType,
    };
  } else if (venueId === 'navi') {
    resolved = {
      kind: 'navi',
      venueId,
      packageId,
      storage: id('storage'),
      pool: id('pool'),
      assetId: Number(uint('assetId', 255n)),
      incentiveV2: id('incentiveV2'),
      incentiveV3: id('incentiveV3'),
      priceOracle: id('priceOracle'),
      reserve: id('reserve'),
      supplyBalances: id('supplyBalances'),
      lendingCorePackage: id('lendingCorePackage'),
    };
  } else {
    const receiptCoinType = type(
      'receiptCoinType',
      (value) => {
        const tag = parseStructTag(value);
        return (
          tag.module === 'reserve' &&
          tag.name === 'MarketCoin' &&
          tag.typeParams.length === 1 &&
          normalizeStructTag(tag.typeParams[0] ?? '') === usdc
        );
      },
      `<scallop>::reserve::MarketCoin<${usdc}>`,
    );
    resolved = {
      kind: 'scallop',
      venueId,
      packageId,
      version: id('version'),
      market: id('market'),
      balanceSheet: id('balanceSheet'),
      receiptCoinType,
    };
  }
  return blockers.length > 0 ? { status: 'blocked', blockers } : { status: 'ok', venue: resolved };
}

/** The venue's receipt coin type, or undefined for Navi (its balance lives in its storage). */
export function venueReceiptCoinType(venue: SuiVenue): string | undefined {
  return venue.kind === 'navi' ? undefined : venue.receiptCoinType;
}
