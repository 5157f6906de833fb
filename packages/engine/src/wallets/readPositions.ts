import { readBalancesOf } from '@yieldrouter/ledger';
import type { PrismaClientOrTransaction, WalletBalanceRow } from '@yieldrouter/ledger';
import type { PositionDocument } from '@yieldrouter/schemas';
import { Chain, formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
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

/** One wallet's position document from its ledger rows (all four chains, zeros included). */
export function positionDocument(
  wallet: string,
  rows: readonly WalletBalanceRow[],
  now: Date,
): PositionDocument {
  const total = zero();
  const byChain = Object.fromEntries(
    Chain.options.map((chain) => {
      const totals = zero();
      const mine = rows.filter((row) => row.chain === chain);
      mine.forEach((row) => add(totals, row));
      mine.forEach((row) => add(total, row));
      const venues = mine
        .filter((row) => row.bucket.startsWith('staked:') && row.balanceMicros > 0n)
        .map((row) => ({
          opportunityId: row.bucket.slice('staked:'.length),
          venueId: row.venueId,
          protocol: row.protocol,
          stakedMicros: formatMicros(row.balanceMicros),
        }));
      return [chain, { ...amounts(totals), venues }];
    }),
  ) as PositionDocument['byChain'];
  return {
    schemaVersion: 'svc-wallet-position.v1',
    wallet,
    ...amounts(total),
    byChain,
    asOf: now.toISOString(),
  };
}

/**
 * Positions of several wallets in one query, in the order given. Each address is read under its
 * ledger key (canonical address, or the label as given).
 */
export async function readPositions(
  db: PrismaClientOrTransaction,
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
  return wallets.map((wallet) => positionDocument(wallet, byWallet.get(wallet) ?? [], now));
}
