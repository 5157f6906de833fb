import type { BalanceReader, WalletBalanceRow } from '@yieldrouter/ledger';
import type { PositionDocument } from '@yieldrouter/schemas';
import { Chain, formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { deepFreeze } from '../deepFreeze';
import { ledgerWallet } from './walletAddress';

interface Totals {
  liquid: bigint;
  staked: bigint;
  pendingIn: bigint;
  pendingOut: bigint;
  inFlight: bigint;
}

const zero = (): Totals => ({
  liquid: 0n,
  staked: 0n,
  pendingIn: 0n,
  pendingOut: 0n,
  inFlight: 0n,
});

function add(totals: Totals, row: WalletBalanceRow): void {
  if (row.bucket === 'liquid') totals.liquid += row.balanceMicros;
  else if (row.bucket === 'pending_in') totals.pendingIn += row.balanceMicros;
  else if (row.bucket === 'pending_out') totals.pendingOut += row.balanceMicros;
  else if (row.bucket === 'in_flight') totals.inFlight += row.balanceMicros;
  else if (row.opportunityId !== null) totals.staked += row.balanceMicros;
}

/** "0" without a conversion: most amounts of a position are zero. */
const micros = (value: bigint) => (value === 0n ? '0' : formatMicros(value));

type ChainPositionDocument = PositionDocument['byChain'][Chain];
type Venues = ChainPositionDocument['venues'];

const chainDocument = (totals: Totals, venues: Venues): ChainPositionDocument => ({
  liquidMicros: micros(totals.liquid),
  stakedMicros: micros(totals.staked),
  pendingInMicros: micros(totals.pendingIn),
  pendingOutMicros: micros(totals.pendingOut),
  inFlightMicros: micros(totals.inFlight),
  venues,
});

/** A chain the wallet holds nothing on (shared and frozen: most wallets use one chain). */
const EMPTY_CHAIN: ChainPositionDocument = deepFreeze(chainDocument(zero(), []));

/** Read once: a zod enum's `options` is a getter. */
const CHAINS: readonly Chain[] = Chain.options;

interface ChainTally {
  readonly totals: Totals;
  readonly venues: Venues;
}

/**
 * One wallet's position document from its ledger rows, in any order (all four chains, zeros
 * included), in one pass over the rows. Positions are read in batches of up to 50 wallets, so
 * this runs 50 times per batch: it allocates little (shared empty chains, no spreads).
 */
export function positionDocument(
  wallet: string,
  rows: readonly WalletBalanceRow[],
  asOf: string,
): PositionDocument {
  const total = zero();
  const tallies: Partial<Record<string, ChainTally>> = {};
  for (const row of rows) {
    const tally = (tallies[row.chain] ??= { totals: zero(), venues: [] });
    add(tally.totals, row);
    add(total, row);
    if (row.balanceMicros > 0n && row.opportunityId !== null) {
      tally.venues.push({
        opportunityId: row.opportunityId,
        venueId: row.venueId,
        protocol: row.protocol,
        stakedMicros: formatMicros(row.balanceMicros),
      });
    }
  }
  const byChain = {} as Record<Chain, ChainPositionDocument>;
  for (const chain of CHAINS) {
    const tally = tallies[chain];
    if (!tally) {
      byChain[chain] = EMPTY_CHAIN;
      continue;
    }
    // Rows come unordered: venues are listed by opportunity id.
    if (tally.venues.length > 1) {
      tally.venues.sort((a, b) => (a.opportunityId < b.opportunityId ? -1 : 1));
    }
    byChain[chain] = chainDocument(tally.totals, tally.venues);
  }
  return {
    schemaVersion: 'svc-wallet-position.v1',
    wallet,
    liquidMicros: micros(total.liquid),
    stakedMicros: micros(total.staked),
    pendingInMicros: micros(total.pendingIn),
    pendingOutMicros: micros(total.pendingOut),
    inFlightMicros: micros(total.inFlight),
    byChain,
    asOf,
  };
}

/**
 * Positions of several wallets in one query, in the order given. Each address is read under its
 * ledger key (canonical address, or the label as given). The API passes the database's grouped
 * reader (`Books.balances`: concurrent reads share a query); `directBalanceReader` reads
 * alone, on any client.
 */
export async function readPositions(
  balances: BalanceReader,
  adapters: ChainAdapters,
  addresses: readonly string[],
  now: Date,
): Promise<PositionDocument[]> {
  const wallets = addresses.map((address) => ledgerWallet(adapters, address));
  const rows = await balances.read(wallets);
  const asOf = now.toISOString();
  return wallets.map((wallet, index) => positionDocument(wallet, rows[index] ?? [], asOf));
}
