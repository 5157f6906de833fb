import { bcs } from '@mysten/sui/bcs';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { deriveDynamicFieldID, normalizeSuiAddress } from '@mysten/sui/utils';
import type { Unavailable } from '@yieldrouter/schemas';
import { SuiBadResponseError } from '../errors';
import { rpcNotConfigured, suiRpcFailure } from '../rpc';
import type { NaviVenue, ScallopVenue, SuilendVenue } from './suiVenue';

/**
 * A receipt coin's exchange rate: `underlying / receipts` USDC base units per receipt unit.
 * Suilend: its `ctoken_ratio` (total supply = available + borrowed − unclaimed spread fees, over
 * the CToken supply, a WAD Decimal rounded down) over WAD; Scallop: the balance sheet's cash +
 * debt − revenue over the MarketCoin supply.
 */
export interface ReceiptRate {
  readonly underlying: bigint;
  readonly receipts: bigint;
}

/** Navi: the reserve's supply index (RAY) and the owner's scaled balance (9-decimal units). */
export interface NaviSupply {
  readonly supplyIndex: bigint;
  readonly scaledBalance: bigint;
}

export type StateReading<T> = ({ readonly status: 'ok' } & T) | Unavailable;

/** Suilend's `Decimal` is a WAD (10^18) fixed point. */
export const WAD = 10n ** 18n;
/** Navi's indexes are RAYs (10^27). */
export const RAY = 10n ** 27n;
/** Navi keeps every asset in 9 decimals; USDC has 6. */
export const NAVI_USDC_SCALE = 1_000n;

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown, what: string): Fields {
  const object = value as { fields?: unknown } | null;
  const fields =
    typeof object === 'object' && object !== null && 'fields' in object ? object.fields : value;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new SuiBadResponseError(`${what}: not a Move struct`);
  }
  return fields as Fields;
}

function uint(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new SuiBadResponseError(`${what}: not an unsigned integer`);
  }
  return BigInt(value);
}

/** A `TypeName`'s `name` as Sui prints it: the address without 0x, 64 hex digits. */
function typeNameOf(value: unknown, what: string): string {
  const name = fieldsOf(value, what).name;
  if (typeof name !== 'string') throw new SuiBadResponseError(`${what}: no type name`);
  return name;
}

/** `0x…::usdc::USDC` as a `TypeName` prints it (no 0x). */
export function typeNameText(type: string): string {
  return type.replace(/^0x/, '');
}

async function objectFields(client: SuiJsonRpcClient, id: string, what: string): Promise<Fields> {
  const response = await client.getObject({ id, options: { showContent: true } });
  const content = response.data?.content;
  if (!content || content.dataType !== 'moveObject') {
    throw new SuiBadResponseError(`${what}: object ${id} not found`);
  }
  return fieldsOf(content, what);
}

async function reading<T>(
  client: SuiJsonRpcClient | undefined,
  what: string,
  read: (client: SuiJsonRpcClient) => Promise<T>,
): Promise<StateReading<T>> {
  if (!client) return rpcNotConfigured(what);
  try {
    return { status: 'ok', ...(await read(client)) };
  } catch (error) {
    return suiRpcFailure(error, what);
  }
}

type SuilendReserveFound =
  | { readonly found: true; readonly index: bigint; readonly reserve: Fields }
  | { readonly found: false; readonly field: string; readonly detail: string };

/**
 * USDC's reserve in a `LendingMarket`'s `reserves`, as @suilend/sdk's `findReserveArrayIndex`
 * finds it: the reserve whose `coin_type` is USDC's (Suilend keeps one reserve per coin type,
 * at `reserves[array_index]`). A configured index must be that reserve's; a market without a
 * USDC reserve or a configured index that is another reserve's is not found, naming the id.
 */
function findSuilendReserve(
  market: Fields,
  venue: SuilendVenue,
  usdc: string,
  what: string,
): SuilendReserveFound {
  if (!Array.isArray(market.reserves)) throw new SuiBadResponseError(`${what}: no reserves`);
  const reserves = market.reserves.map((value, i) => fieldsOf(value, `${what} ${i}`));
  const isUsdc = (reserve: Fields, i: number) =>
    typeNameOf(reserve.coin_type, `${what}.coin_type`) === typeNameText(usdc) &&
    uint(reserve.array_index, `${what}.array_index`) === BigInt(i);
  const usdcIndex = reserves.findIndex(isUsdc);
  const pinned = venue.reserveIndex;
  if (pinned !== undefined) {
    const reserve = pinned < BigInt(reserves.length) ? reserves[Number(pinned)] : undefined;
    if (reserve && isUsdc(reserve, Number(pinned))) return { found: true, index: pinned, reserve };
    return {
      found: false,
      field: 'ids.reserveIndex',
      detail:
        `reserve ${pinned} of lending market ${venue.lendingMarket} is not USDC's` +
        (usdcIndex < 0 ? ' (it has no USDC reserve)' : ` (USDC's is ${usdcIndex})`),
    };
  }
  const reserve = reserves[usdcIndex];
  if (!reserve) {
    return {
      found: false,
      field: 'ids.lendingMarket',
      detail: `lending market ${venue.lendingMarket} has no USDC reserve`,
    };
  }
  return { found: true, index: BigInt(usdcIndex), reserve };
}

/**
 * Where a leg's calls find USDC in Suilend's market: `reserveIndex` read from the
 * `LendingMarket` on chain (a configured one checked there), `mismatch` when the market has no
 * USDC reserve or the configured index is another reserve's, unavailable when it cannot be read
 * (no RPC, a failed or unreadable answer): never a guessed index.
 */
export type SuilendReserveLocation =
  | { readonly status: 'ok'; readonly reserveIndex: bigint }
  | { readonly status: 'mismatch'; readonly field: string; readonly detail: string }
  | Unavailable;

export async function locateSuilendReserve(
  client: SuiJsonRpcClient | undefined,
  venue: SuilendVenue,
  usdc: string,
): Promise<SuilendReserveLocation> {
  const what = 'suilend lending market';
  const read = await reading(client, what, async (rpc) => ({
    located: findSuilendReserve(
      await objectFields(rpc, venue.lendingMarket, what),
      venue,
      usdc,
      what,
    ),
  }));
  if (read.status !== 'ok') return read;
  return read.located.found
    ? { status: 'ok', reserveIndex: read.located.index }
    : { status: 'mismatch', field: read.located.field, detail: read.located.detail };
}

/**
 * Suilend's CToken rate from the `LendingMarket`'s USDC reserve, with the published layout:
 * `reserves[i].{array_index, coin_type, available_amount, borrowed_amount: Decimal,
 * unclaimed_spread_fees: Decimal, ctoken_supply}`. The reserve is USDC's, found by coin type
 * (at the configured index when there is one).
 */
export function readSuilendRate(
  client: SuiJsonRpcClient | undefined,
  venue: SuilendVenue,
  usdc: string,
): Promise<StateReading<ReceiptRate>> {
  const what = 'suilend reserve';
  return reading(client, what, async (rpc) => {
    const market = await objectFields(rpc, venue.lendingMarket, what);
    const located = findSuilendReserve(market, venue, usdc, what);
    if (!located.found) throw new SuiBadResponseError(`${what}: ${located.detail}`);
    const { reserve } = located;
    const available = uint(reserve.available_amount, `${what}.available_amount`);
    const borrowed = uint(fieldsOf(reserve.borrowed_amount, what).value, `${what}.borrowed_amount`);
    const spread = uint(
      fieldsOf(reserve.unclaimed_spread_fees, what).value,
      `${what}.unclaimed_spread_fees`,
    );
    const ctokens = uint(reserve.ctoken_supply, `${what}.ctoken_supply`);
    const total = available * WAD + borrowed - spread;
    // Suilend's `ctoken_ratio`: a Decimal (WAD), total supply / ctoken supply rounded down, 1
    // when no CTokens exist; a redemption is ctokens × ratio rounded down.
    const ratio = ctokens === 0n ? WAD : (total < 0n ? 0n : total) / ctokens;
    return { underlying: ratio, receipts: WAD };
  });
}

/**
 * Scallop's MarketCoin rate from USDC's `BalanceSheet { cash, debt, revenue, market_coin_supply }`
 * (the dynamic field of the market vault's `balance_sheets` keyed by USDC's TypeName).
 */
export function readScallopRate(
  client: SuiJsonRpcClient | undefined,
  venue: ScallopVenue,
  usdc: string,
): Promise<StateReading<ReceiptRate>> {
  const what = 'scallop balance sheet';
  return reading(client, what, async (rpc) => {
    const field = await objectFields(rpc, venue.balanceSheet, what);
    if (typeNameOf(field.name, `${what}.name`) !== typeNameText(usdc)) {
      throw new SuiBadResponseError(`${what}: ${venue.balanceSheet} is not USDC's balance sheet`);
    }
    const sheet = fieldsOf(field.value, what);
    const cash = uint(sheet.cash, `${what}.cash`);
    const debt = uint(sheet.debt, `${what}.debt`);
    const revenue = uint(sheet.revenue, `${what}.revenue`);
    const supply = uint(sheet.market_coin_supply, `${what}.market_coin_supply`);
    const total = cash + debt - revenue;
    return { underlying: total < 0n ? 0n : total, receipts: supply };
  });
}

/** The id of the owner's entry in Navi's `supply_balance.user_state: Table<address, u256>`. */
export function naviSupplyEntryId(venue: NaviVenue, owner: string): string {
  return deriveDynamicFieldID(
    venue.supplyBalances,
    'address',
    bcs.Address.serialize(normalizeSuiAddress(owner)).toBytes(),
  );
}

/**
 * Navi's supply index (`ReserveData.current_supply_index`, RAY) and the owner's scaled supply
 * balance (0 when the owner has no entry).
 */
export function readNaviSupply(
  client: SuiJsonRpcClient | undefined,
  venue: NaviVenue,
  owner: string,
): Promise<StateReading<NaviSupply>> {
  const what = 'navi reserve';
  return reading(client, what, async (rpc) => {
    const reserveField = await objectFields(rpc, venue.reserve, what);
    const reserve = fieldsOf(reserveField.value, what);
    const id = reserve.id;
    if (id !== undefined && id !== venue.assetId) {
      throw new SuiBadResponseError(`${what}: ${venue.reserve} is asset ${String(id)}`);
    }
    const supplyIndex = uint(reserve.current_supply_index, `${what}.current_supply_index`);
    const entryId = naviSupplyEntryId(venue, owner);
    const entry = await rpc.getObject({ id: entryId, options: { showContent: true } });
    const content = entry.data?.content;
    const scaledBalance =
      content && content.dataType === 'moveObject'
        ? uint(fieldsOf(content, what).value, `${what}.user_state`)
        : 0n;
    return { supplyIndex, scaledBalance };
  });
}

/** What `receipts` redeem for now (the protocols round the redemption down). */
export function receiptValue(receipts: bigint, rate: ReceiptRate): bigint {
  if (rate.receipts === 0n) return receipts;
  return (receipts * rate.underlying) / rate.receipts;
}

/**
 * The receipts to burn for at least `amount` USDC: rounded up, so the owner never gets less than
 * asked (the protocols round each redemption down; interest compounded in the same transaction
 * only raises the rate).
 */
export function receiptsForAmount(amount: bigint, rate: ReceiptRate): bigint {
  if (rate.underlying === 0n || rate.receipts === 0n) return amount;
  return (amount * rate.receipts + rate.underlying - 1n) / rate.underlying;
}

/** Navi: a scaled balance's USDC value in micros (index in RAY, 9 → 6 decimals, rounded down). */
export function naviValue(scaled: bigint, supplyIndex: bigint): bigint {
  return (scaled * supplyIndex) / RAY / NAVI_USDC_SCALE;
}
