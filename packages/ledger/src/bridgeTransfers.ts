import type { Books } from './books';
import { Prisma } from './generated/prisma/client';
import type { LedgerChain, PostingInput } from './journal';
import { postJournalEntry } from './journal';
import { insertOutboxEvents } from './legs';
import type { OutboxEventInput } from './legs';

/** What a bridge plan moves (migration 0026), stored with the plan. */
export interface BridgeTransferInput {
  readonly planId: string;
  readonly rail: 'cctp';
  readonly speed: 'standard' | 'fast';
  readonly sourceChain: LedgerChain;
  readonly destChain: LedgerChain;
  readonly owner: string;
  readonly recipient: string;
  readonly burnMicros: bigint;
  readonly maxRailFeeMicros: bigint;
  readonly minReceivedMicros: bigint;
  /** The service's bridge fee leg (a USDC transfer before the burn): 0 when there is none. */
  readonly serviceFeeMicros: bigint;
  readonly feeRecipient: string | null;
}

/** A bridge transfer as a plan carries it (`PlanInput.bridgeTransfer`): its plan is the plan's. */
export type BridgeTransferFields = Omit<BridgeTransferInput, 'planId'>;

/** A bridge transfer with its burn leg's state and, once delivered, its delivery. */
export interface BridgeTransferRow extends BridgeTransferInput {
  readonly burnLegIndex: number;
  readonly burnStatus: string;
  readonly burnTxId: string | null;
  /** What the burn receipt proved burned (and moved into in_flight); null until then. */
  readonly burnedMicros: bigint | null;
  readonly mintTxId: string | null;
  readonly deliveredMicros: bigint | null;
  readonly deliveredAt: Date | null;
  /** When and why the bridge failed (migration 0031); the amount stays in in_flight. */
  readonly failedAt: Date | null;
  readonly failureReason: string | null;
  /** The mint leg's simulation on the destination as last served (0070); null before. */
  readonly mintSimulation: Prisma.JsonValue | null;
}

interface Row {
  plan_id: string;
  rail: 'cctp';
  speed: 'standard' | 'fast';
  source_chain: LedgerChain;
  dest_chain: LedgerChain;
  owner: string;
  recipient: string;
  burn_micros: bigint;
  max_rail_fee_micros: bigint;
  min_received_micros: bigint;
  service_fee_micros: bigint;
  fee_recipient: string | null;
  mint_tx_id: string | null;
  delivered_micros: bigint | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  failure_reason: string | null;
  mint_simulation: Prisma.JsonValue | null;
  leg_index: number;
  status: string;
  tx_id: string | null;
  settled_amount_micros: bigint | null;
}

const toRow = (row: Row): BridgeTransferRow => ({
  planId: row.plan_id,
  rail: row.rail,
  speed: row.speed,
  sourceChain: row.source_chain,
  destChain: row.dest_chain,
  owner: row.owner,
  recipient: row.recipient,
  burnMicros: row.burn_micros,
  maxRailFeeMicros: row.max_rail_fee_micros,
  minReceivedMicros: row.min_received_micros,
  serviceFeeMicros: row.service_fee_micros,
  feeRecipient: row.fee_recipient,
  burnLegIndex: row.leg_index,
  burnStatus: row.status,
  burnTxId: row.tx_id,
  burnedMicros: row.status === 'confirmed' ? row.settled_amount_micros : null,
  mintTxId: row.mint_tx_id,
  deliveredMicros: row.delivered_micros,
  deliveredAt: row.delivered_at,
  failedAt: row.failed_at,
  failureReason: row.failure_reason,
  mintSimulation: row.mint_simulation,
});

/** A transfer with its burn leg: the one read every lookup and listing below starts from. */
const SELECT_TRANSFERS = Prisma.sql`
  SELECT b.*, l.leg_index, l.status, l.tx_id, l.settled_amount_micros
  FROM bridge_transfers b
  JOIN plan_legs l ON l.plan_id = b.plan_id AND l.effect = 'bridge_burn'`;

/**
 * The bridge transfer of a plan with its burn leg; null for a plan that bridges nothing. With
 * `lock`, the transfer's row stays locked until the caller's transaction ends.
 */
export async function findBridgeTransfer(
  db: Books,
  planId: string,
  { lock = false }: { lock?: boolean } = {},
): Promise<BridgeTransferRow | null> {
  const [row] = await db.$queryRaw<Row[]>`
    ${SELECT_TRANSFERS}
    WHERE b.plan_id = ${planId}
    ${lock ? Prisma.sql`FOR UPDATE OF b` : Prisma.empty}`;
  return row ? toRow(row) : null;
}

/** Why a write under the transfer's lock did nothing. */
export interface BridgeTransferRefusal {
  readonly status: 'refused';
  readonly reason: string;
}

/**
 * Runs `work` in one ledger transaction with the plan's transfer read under its row lock (the
 * delivery and the failure are decided on that read, never on an earlier one); a plan that
 * bridges nothing is refused before `work` runs.
 */
export async function withLockedBridgeTransfer<T>(
  prisma: Books,
  planId: string,
  work: (tx: Books, transfer: BridgeTransferRow) => Promise<T>,
): Promise<T | BridgeTransferRefusal> {
  return prisma.transaction(async (tx) => {
    const transfer = await findBridgeTransfer(tx, planId, { lock: true });
    if (!transfer) return { status: 'refused', reason: `${planId} is not a bridge plan` } as const;
    return work(tx, transfer);
  });
}

export interface ListInFlightBridgesParameters {
  readonly limit: number;
  /** The last transfer of the previous page. */
  readonly after?: { readonly createdAt: Date; readonly planId: string };
  /**
   * Failed bridges (still deliverable: their mint may happen late) are listed only when the
   * watch last looked at them before this; unset: every failed one too.
   */
  readonly failedWatchedBefore?: Date;
}

/**
 * Bridges in flight: the burn settled (confirmed from its receipt), no delivery yet; oldest
 * first, a page after `after`. Failed ones are among them (a late mint still delivers), unless
 * looked at since `failedWatchedBefore`.
 */
export async function listInFlightBridges(
  db: Books,
  { limit, after, failedWatchedBefore }: ListInFlightBridgesParameters,
): Promise<(BridgeTransferRow & { readonly createdAt: Date })[]> {
  const afterTime = after?.createdAt ?? null;
  const afterId = after?.planId ?? null;
  const watchedBefore = failedWatchedBefore ?? null;
  const rows = await db.$queryRaw<(Row & { created_at: Date })[]>`
    ${SELECT_TRANSFERS}
    WHERE b.mint_tx_id IS NULL AND l.status = 'confirmed'
      AND (b.failed_at IS NULL OR ${watchedBefore}::timestamptz IS NULL
           OR b.failed_watched_at IS NULL OR b.failed_watched_at < ${watchedBefore}::timestamptz)
      AND (${afterTime}::timestamptz IS NULL
           OR (b.created_at, b.plan_id) > (${afterTime}::timestamptz, ${afterId}::text))
    ORDER BY b.created_at, b.plan_id
    LIMIT ${limit}`;
  return rows.map((row) => ({ ...toRow(row), createdAt: row.created_at }));
}

/**
 * Records that the bridge watch looked at a failed bridge at `now` (migration 0038), so it is
 * not looked at again before `SVC_BRIDGE_FAILED_WATCH_MS` has passed. A bridge not failed (or
 * delivered meanwhile) is left as it is: in-flight ones are looked at every pass.
 */
export async function markFailedBridgeWatched(db: Books, planId: string, now: Date): Promise<void> {
  await db.$executeRaw`
    UPDATE bridge_transfers SET failed_watched_at = ${now}
    WHERE plan_id = ${planId} AND failed_at IS NOT NULL AND mint_tx_id IS NULL`;
}

export interface RecordBridgeDeliveryParameters {
  readonly planId: string;
  readonly mintTxId: string;
  /** The attested message's nonce the mint delivered. */
  readonly messageNonce: string;
  /** What the mint receipt proves minted to the recipient. */
  readonly deliveredMicros: bigint;
  /** Written with the delivery (the mint's `plan.divergence`), not on a replay. */
  readonly events?: readonly OutboxEventInput[];
  readonly now: Date;
}

export type RecordBridgeDeliveryResult =
  | { readonly status: 'delivered'; readonly replay: boolean; readonly transfer: BridgeTransferRow }
  | BridgeTransferRefusal;

/**
 * Credits a confirmed delivery, once, in one transaction under the transfer's lock: in_flight on
 * the source → liquid on the destination (what the mint proved), the rest of what was burned
 * (the rail's fee) → the destination chain's outside; then `bridge.delivered` and
 * `position.updated`. The same mint again is a replay; another mint for a delivered plan, a burn
 * not settled yet, or a mint of more than was burned is refused (nothing written).
 */
export async function recordBridgeDelivery(
  prisma: Books,
  parameters: RecordBridgeDeliveryParameters,
): Promise<RecordBridgeDeliveryResult> {
  const { planId, mintTxId, deliveredMicros, now } = parameters;
  return withLockedBridgeTransfer(prisma, planId, async (tx, transfer) => {
    if (transfer.mintTxId !== null) {
      return transfer.mintTxId === mintTxId
        ? { status: 'delivered', replay: true, transfer }
        : {
            status: 'refused',
            reason: `${planId} was delivered by ${transfer.mintTxId} already`,
          };
    }
    const burned = transfer.burnedMicros;
    if (burned === null) {
      return {
        status: 'refused',
        reason: `the burn of ${planId} has not settled (${transfer.burnStatus})`,
      };
    }
    if (deliveredMicros <= 0n || deliveredMicros > burned) {
      return {
        status: 'refused',
        reason: `the mint credited ${deliveredMicros} micros; the burn moved ${burned}`,
      };
    }
    const postings: PostingInput[] = [
      {
        account: { wallet: transfer.owner, chain: transfer.sourceChain, bucket: 'in_flight' },
        amountMicros: -burned,
      },
      {
        account: { wallet: transfer.recipient, chain: transfer.destChain, bucket: 'liquid' },
        amountMicros: deliveredMicros,
      },
    ];
    if (burned > deliveredMicros) {
      postings.push({
        account: { system: 'external', chain: transfer.destChain },
        amountMicros: burned - deliveredMicros,
      });
    }
    await postJournalEntry(tx, {
      kind: 'bridge_delivery',
      dedupeKey: `bridge-delivery:${planId}`,
      planId,
      txId: mintTxId,
      postings,
    });
    await tx.$executeRaw`
      UPDATE bridge_transfers
      SET message_nonce = ${parameters.messageNonce}, mint_tx_id = ${mintTxId},
          delivered_micros = ${deliveredMicros}, delivered_at = ${now}
      WHERE plan_id = ${planId}`;
    const wallet = transfer.recipient;
    const delivered = {
      wallet,
      planId,
      sourceChain: transfer.sourceChain,
      destinationChain: transfer.destChain,
      amountMicros: deliveredMicros.toString(),
      sourceTxId: transfer.burnTxId ?? '',
      destinationTxId: mintTxId,
    };
    const updated = {
      wallet,
      chain: transfer.destChain,
      cause: 'settled',
      planId,
      legIndex: null,
      txId: mintTxId,
      harvestId: null,
    };
    await insertOutboxEvents(
      tx,
      [
        { type: 'bridge.delivered', wallet, payload: delivered },
        { type: 'position.updated', wallet, payload: updated },
        ...(parameters.events ?? []),
      ],
      now,
    );
    return {
      status: 'delivered',
      replay: false,
      transfer: { ...transfer, mintTxId, deliveredMicros, deliveredAt: now },
    };
  });
}

/**
 * Keeps the mint leg's simulation as served (0070), replacing the one before; not once the
 * bridge is delivered (what was compared stays). False when nothing was written.
 */
export async function recordMintSimulation(
  db: Pick<Books, '$executeRaw'>,
  planId: string,
  /** JSON-safe (amounts as strings): the `simulation` document as served. */
  simulation: object,
): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE bridge_transfers SET mint_simulation = ${JSON.stringify(simulation)}::jsonb
     WHERE plan_id = ${planId} AND mint_tx_id IS NULL`;
  return updated > 0;
}
