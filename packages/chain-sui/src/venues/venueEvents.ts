import { normalizeStructTag } from '@mysten/sui/utils';
import { normalizeSuiOwner } from '../address';
import type { SuiLegAction } from '../legPlan';
import type { EventView } from '../shapes';
import { typeNameText } from './readVenueState';
import type { SuiVenue } from './suiVenue';
import { typePackage } from './suiVenue';

/** What the protocol's events say a leg moved: USDC and, for receipt venues, receipt units. */
export type VenueEventMatch =
  | { readonly status: 'matched'; readonly amount: bigint; readonly receipts: bigint | undefined }
  | { readonly status: 'mismatch'; readonly reason: string };

interface EventRule {
  /** The event's full type: only the protocol's package can emit it. */
  readonly type: string;
  /** Whether the event is this leg's (owner, asset, market). */
  readonly ours: (fields: Record<string, unknown>) => boolean;
  readonly amount: string;
  readonly receipts: string | undefined;
}

const typeName = (value: unknown): string | undefined => {
  const fields = (value as { fields?: { name?: unknown }; name?: unknown } | null) ?? undefined;
  const name = fields?.fields?.name ?? fields?.name;
  return typeof name === 'string' ? name : undefined;
};

/** An address field (an owner, an object id) equal to `expected`. */
const sameOwner = (value: unknown, expected: string) =>
  typeof value === 'string' && normalizeSuiOwner(value) === expected;

/**
 * The event each venue emits for a deposit or a withdrawal, with the fields that prove it is the
 * owner's (Suilend's events name no owner: the sender and the balance changes prove it).
 */
function ruleOf(venue: SuiVenue, action: SuiLegAction, usdc: string, owner: string): EventRule {
  const usdcName = typeNameText(usdc);
  if (venue.kind === 'suilend') {
    // The published layout: { lending_market_id, coin_type, reserve_id, liquidity_amount,
    // ctoken_amount } (@suilend/sdk's generated lending_market structs).
    const name = action === 'deposit' ? 'MintEvent' : 'RedeemEvent';
    return {
      type: `${typePackage(venue.lendingMarketType)}::lending_market::${name}`,
      ours: (f) =>
        sameOwner(f.lending_market_id, venue.lendingMarket) && typeName(f.coin_type) === usdcName,
      amount: 'liquidity_amount',
      receipts: 'ctoken_amount',
    };
  }
  if (venue.kind === 'scallop') {
    const pkg = typePackage(venue.receiptCoinType);
    return action === 'deposit'
      ? {
          type: `${pkg}::mint::MintEvent`,
          ours: (f) => sameOwner(f.minter, owner) && typeName(f.deposit_asset) === usdcName,
          amount: 'deposit_amount',
          receipts: 'mint_amount',
        }
      : {
          type: `${pkg}::redeem::RedeemEvent`,
          ours: (f) => sameOwner(f.redeemer, owner) && typeName(f.withdraw_asset) === usdcName,
          amount: 'withdraw_amount',
          receipts: 'burn_amount',
        };
  }
  const reserve = (value: unknown) => Number(value) === venue.assetId;
  return action === 'deposit'
    ? {
        type: `${venue.lendingCorePackage}::lending::DepositEvent`,
        ours: (f) => sameOwner(f.sender, owner) && reserve(f.reserve),
        amount: 'amount',
        receipts: undefined,
      }
    : {
        type: `${venue.lendingCorePackage}::lending::WithdrawEvent`,
        ours: (f) => sameOwner(f.sender, owner) && sameOwner(f.to, owner) && reserve(f.reserve),
        amount: 'amount',
        receipts: undefined,
      };
}

function canonical(type: string): string | undefined {
  try {
    return normalizeStructTag(type);
  } catch {
    return undefined;
  }
}

function u64(value: unknown): bigint | undefined {
  return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : undefined;
}

/**
 * Finds the venue's own event for the leg and adds up what it says moved (several calls in one
 * transaction add up). An event of another type, owner, asset or market does not count.
 */
export function matchVenueEvents(
  events: readonly EventView[],
  expected: { venue: SuiVenue; action: SuiLegAction; usdc: string; owner: string },
): VenueEventMatch {
  const rule = ruleOf(expected.venue, expected.action, expected.usdc, expected.owner);
  const type = normalizeStructTag(rule.type);
  const name = type.slice(type.lastIndexOf('::') + 2);
  const typed = events.filter((event) => canonical(event.type) === type);
  if (typed.length === 0)
    return { status: 'mismatch', reason: `no ${name} event from ${expected.venue.venueId}` };
  const fields = typed.map((event) =>
    typeof event.parsedJson === 'object' && event.parsedJson !== null
      ? (event.parsedJson as Record<string, unknown>)
      : {},
  );
  const ours = fields.filter(rule.ours);
  if (ours.length === 0) {
    return { status: 'mismatch', reason: `the ${name} event names another owner, asset or market` };
  }
  let amount = 0n;
  let receipts = 0n;
  for (const data of ours) {
    const moved = u64(data[rule.amount]);
    const units = rule.receipts === undefined ? 0n : u64(data[rule.receipts]);
    if (moved === undefined || units === undefined) {
      return { status: 'mismatch', reason: `the ${name} event has no readable amount` };
    }
    amount += moved;
    receipts += units;
  }
  return {
    status: 'matched',
    amount,
    receipts: rule.receipts === undefined ? undefined : receipts,
  };
}
