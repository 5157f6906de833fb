import { readBalancesOf } from '@yieldrouter/ledger';
import type { SqlClientOrPrisma, WalletBalanceRow } from '@yieldrouter/ledger';
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
  else if (row.bucket.startsWith('staked:')) totals.staked += row.balanceMicros;
}

const amounts = (totals: Totals) => ({
  liquidMicros: formatMicros(totals.liquid),
  stakedMicros: formatMicros(totals.staked),
  pendingInMicros: formatMicros(totals.pendingIn),
  pendingOutMicros: formatMicros(totals.pendingOut),
  inFlightMicros: formatMicros(totals.inFlight),
});

type ChainPositionDocument = PositionDocument['byChain'][Chain];

/** A chain the wallet holds nothing on (shared and frozen: most wallets use one chain). */
const EMPTY_CHAIN: ChainPositionDocument = deepFreeze({ ...amounts(zero()), venues: [] });

/**
 * One wallet's position document from its ledger rows, in any order (all four chains, zeros
 * included), in one pass over the rows: positions are read in batches of up to 50 wallets.
 */
export function positionDocument(
  wallet: string,
  rows: readonly WalletBalanceRow[],
  asOf: string,
): PositionDocument {
  const total = zero();
  const chains = new Map<string, { totals: Totals; venues: ChainPositionDocument['venues'] }>();
  for (const row of rows) {
    let entry = chains.get(row.chain);
    if (!entry) {
      entry = { totals: zero(), venues: [] };
      chains.set(row.chain, entry);
    }
    add(entry.totals, row);
    add(total, row);
    if (row.balanceMicros > 0n && row.bucket.startsWith('staked:')) {
      entry.venues.push({
        opportunityId: row.bucket.slice('staked:'.length),
        venueId: row.venueId,
        protocol: row.protocol,
        stakedMicros: formatMicros(row.balanceMicros),
      });
    }
  }
  const byChain = {} as Record<Chain, ChainPositionDocument>;
  for (const chain of Chain.options) {
    const entry = chains.get(chain);
    // Rows come unordered: venues are listed by opportunity id.
    if (entry && entry.venues.length > 1) {
      entry.venues.sort((a, b) => (a.opportunityId < b.opportunityId ? -1 : 1));
    }
    byChain[chain] = entry ? { ...amounts(entry.totals), venues: entry.venues } : EMPTY_CHAIN;
  }
  return {
    schemaVersion: 'svc-wallet-position.v1',
    wallet,
    ...amounts(total),
    byChain,
    asOf,
  };
}

/**
 * Positions of several wallets in one query, in the order given. Each address is read under its
 * ledger key (canonical address, or the label as given). Pass the database's `sql` client on
 * the read path (no ORM cost per call), or a Prisma client or transaction.
 */
export async function readPositions(
  db: SqlClientOrPrisma,
  adapters: ChainAdapters,
  addresses: readonly string[],
  now: Date,
): Promise<PositionDocument[]> {
  const wallets = addresses.map((address) => ledgerWallet(adapters, address));
  const rows = await readBalancesOf(db, wallets);
  const byWallet = new Map<string, WalletBalanceRow[]>();
  for (const row of rows) {
    const list = byWallet.get(row.wallet) ?? [];
    list.push(row);
    byWallet.set(row.wallet, list);
  }
  const asOf = now.toISOString();
  return wallets.map((wallet) => positionDocument(wallet, byWallet.get(wallet) ?? [], asOf));
}
