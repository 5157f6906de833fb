import type { Books } from './books';
import type { JournalEntryInput } from './journal';
import { journalEntryPayload, retryTransient } from './journal';
import type { OutboxEventInput, PositionState } from './legs';
import { outboxPayload } from './legs';
import { sqlStatement } from './sqlClient';

/** A venue position of a wallet as the books track it (migration 0011), with its venue. */
export interface TrackedPosition extends PositionState {
  readonly wallet: string;
  readonly chain: string;
  readonly opportunityId: string;
  readonly venueId: string;
  readonly standard: string;
  /** The wallet's staked balance in the venue (mark = staked + fees retained). */
  readonly stakedMicros: bigint;
}

interface TrackedPositionRow {
  wallet: string;
  chain: string;
  opportunity_id: string;
  venue_id: string;
  standard: string;
  shares: string;
  shares_known: boolean;
  mark_micros: string;
  fees_retained_micros: string;
  version: string;
  staked_micros: string;
}

const POSITION_COLUMNS = `
  pos.wallet, pos.chain, pos.opportunity_id, pos.venue_id, v.standard, pos.shares::text AS shares,
  pos.shares_known, pos.mark_micros::text AS mark_micros,
  pos.fees_retained_micros::text AS fees_retained_micros, pos.version::text AS version,
  COALESCE((SELECT a.balance_micros FROM ledger_accounts a
            WHERE a.wallet = pos.wallet AND a.chain = pos.chain
              AND a.bucket = 'staked:' || pos.opportunity_id), 0)::text AS staked_micros`;

// Positions that hold something: shares, or a mark (a position whose shares are unknown).
const HOLDS = `(pos.shares > 0 OR pos.mark_micros > 0)`;

const POSITIONS_OF_WALLETS = sqlStatement(
  'yr_positions_of_wallets',
  `
  SELECT ${POSITION_COLUMNS}
  FROM positions pos JOIN venues v ON v.id = pos.venue_id
  WHERE pos.wallet = ANY (ARRAY(SELECT jsonb_array_elements_text($1::jsonb))) AND ${HOLDS}`,
);

// Every position our legs ever moved, emptied ones included: outside money on a venue the
// wallet used through us is worth reporting even after it exited.
const POSITIONS_PAGE = sqlStatement(
  'yr_positions_page',
  `
  SELECT ${POSITION_COLUMNS}
  FROM positions pos JOIN venues v ON v.id = pos.venue_id
  WHERE (pos.wallet COLLATE "C", pos.chain, pos.opportunity_id) > ($1, $2, $3)
  ORDER BY pos.wallet COLLATE "C", pos.chain, pos.opportunity_id
  LIMIT $4`,
);

const toPosition = (row: TrackedPositionRow): TrackedPosition => ({
  wallet: row.wallet,
  chain: row.chain,
  opportunityId: row.opportunity_id,
  venueId: row.venue_id,
  standard: row.standard,
  shares: BigInt(row.shares),
  sharesKnown: row.shares_known,
  markMicros: BigInt(row.mark_micros),
  feesRetainedMicros: BigInt(row.fees_retained_micros),
  version: BigInt(row.version),
  stakedMicros: BigInt(row.staked_micros),
});

/** The positions of `wallets` that hold something, in no particular order. */
export async function readTrackedPositions(
  db: Pick<Books, 'sql'>,
  wallets: readonly string[],
): Promise<TrackedPosition[]> {
  if (wallets.length === 0) return [];
  const rows = await db.sql.query<TrackedPositionRow>(POSITIONS_OF_WALLETS, [
    JSON.stringify(wallets),
  ]);
  return rows.map(toPosition);
}

/** Where a page of positions ended (keyset: wallet in byte order, chain, opportunity). */
export interface PositionCursor {
  readonly wallet: string;
  readonly chain: string;
  readonly opportunityId: string;
}

/** Every position our legs ever moved, in key order, one page at a time (reconciliation). */
export async function listTrackedPositions(
  db: Pick<Books, 'sql'>,
  { after, limit }: { readonly after?: PositionCursor; readonly limit: number },
): Promise<TrackedPosition[]> {
  const rows = await db.sql.query<TrackedPositionRow>(POSITIONS_PAGE, [
    after?.wallet ?? '',
    after?.chain ?? '',
    after?.opportunityId ?? '',
    limit,
  ]);
  return rows.map(toPosition);
}

/** One harvest to book: the position's next mark, its entry, its row and its events. */
export interface HarvestBooking {
  readonly wallet: string;
  readonly chain: string;
  readonly opportunityId: string;
  readonly venueId: string;
  /** The position version the value was measured against. */
  readonly version: bigint;
  readonly harvestId: string;
  readonly shares: bigint;
  readonly valueMicros: bigint;
  readonly valueAsOf: Date;
  readonly basisMicros: bigint;
  readonly grossMicros: bigint;
  readonly protocolFeeMicros: bigint;
  readonly profitFeeMicros: bigint;
  readonly netMicros: bigint;
  readonly untrackedMicros: bigint;
  readonly markMicros: bigint;
  readonly feesRetainedMicros: bigint;
  readonly entry: JournalEntryInput;
  readonly events: readonly OutboxEventInput[];
  readonly now: Date;
}

/** Booked, or `stale`: the position moved since its value was read; nothing was written. */
export type HarvestBookingResult =
  { readonly stale: false; readonly entryId: bigint } | { readonly stale: true };

const RECORD_HARVESTS = sqlStatement(
  'yr_record_harvests',
  `SELECT ord, stale, entry_id::text AS entry_id FROM ledger_record_harvests($1::jsonb)`,
);

function bookingPayload(booking: HarvestBooking) {
  return {
    wallet: booking.wallet,
    chain: booking.chain,
    opportunityId: booking.opportunityId,
    version: booking.version.toString(),
    mark: booking.markMicros.toString(),
    feesRetained: booking.feesRetainedMicros.toString(),
    now: booking.now.toISOString(),
    entry: journalEntryPayload(booking.entry),
    harvest: {
      id: booking.harvestId,
      venueId: booking.venueId,
      value: booking.valueMicros.toString(),
      valueAsOf: booking.valueAsOf.toISOString(),
      basis: booking.basisMicros.toString(),
      gross: booking.grossMicros.toString(),
      protocolFee: booking.protocolFeeMicros.toString(),
      profitFee: booking.profitFeeMicros.toString(),
      net: booking.netMicros.toString(),
      shares: booking.shares.toString(),
      untracked: booking.untrackedMicros.toString(),
    },
    events: outboxPayload(booking.events),
  };
}

/**
 * Books harvests in one autocommit statement (`ledger_record_harvests`, migration 0011): the
 * positions are locked in key order; one whose version moved since its value was read (a leg
 * settled, another harvest booked) comes back `stale` with nothing written; the others post
 * their entries, store their harvest rows, move their marks and write their events.
 */
export async function recordHarvests(
  db: Pick<Books, 'sql'>,
  bookings: readonly HarvestBooking[],
): Promise<HarvestBookingResult[]> {
  if (bookings.length === 0) return [];
  const payload = JSON.stringify(bookings.map(bookingPayload));
  const rows = await retryTransient(() =>
    db.sql.query<{ ord: number; stale: boolean; entry_id: string | null }>(RECORD_HARVESTS, [
      payload,
    ]),
  );
  return bookings.map((booking, index) => {
    const row = rows[index];
    if (!row || row.ord !== index + 1) {
      throw new Error(`ledger_record_harvests returned no row for ${booking.harvestId}`);
    }
    return row.stale || row.entry_id === null
      ? { stale: true }
      : { stale: false, entryId: BigInt(row.entry_id) };
  });
}
