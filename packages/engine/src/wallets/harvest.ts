import { errorMessage } from '@yieldrouter/schemas';
import { computeHarvestFees, defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import {
  countOpenPositionLegs,
  insertHarvest,
  insertOutboxEvents,
  lockPositionForHarvest,
  newHarvestId,
  postJournalEntry,
  readHarvestBasis,
  readStakedPositions,
  runLedgerTransaction,
} from '@yieldrouter/ledger';
import type {
  LedgerChain,
  PositionKey,
  PostingInput,
  Prisma,
  PrismaClientOrTransaction,
  PrismaClient,
  StakedPosition,
  WriteRecorder,
} from '@yieldrouter/ledger';
import type {
  Chain,
  HarvestCompletedData,
  HarvestPositionResult,
  HarvestResult,
  PositionUpdatedData,
  VenueOnChain,
  VenueStandard,
} from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { ledgerWallet, ownerOn } from './walletAddress';

/** Legs this recent that are not final keep a position from being harvested (see below). */
export const HARVEST_OPEN_LEG_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface HarvestParameters {
  readonly db: PrismaClient;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The wallet as named in the path. */
  readonly address: string;
  /** Asks for the on-chain claim: prepare-only here (202), nothing is booked. */
  readonly execute: boolean;
  /** Whether the server may broadcast on a chain (it still never signs for the owner). */
  readonly broadcastEnabled: (chain: Chain) => boolean;
  readonly schedule?: FeeSchedule;
  /** Only the positions on this chain. */
  readonly chain?: Chain;
  readonly now: Date;
  /**
   * Stores the answer with the bookings (Idempotency-Key): every position is then booked in
   * one transaction that also records the result, so a retry gets this answer.
   */
  readonly recordWrite?: WriteRecorder<HarvestResult> | undefined;
}

type Reading =
  | { readonly status: 'ok'; readonly valueMicros: bigint; readonly asOf: Date }
  | { readonly status: 'unavailable'; readonly reason: string };

const ZERO = '0';

function venueOf(position: StakedPosition, venues: VenueConfig): VenueOnChain | undefined {
  if (!position.venueId || !position.standard) return undefined;
  return venueOnChain(venues, {
    venueId: position.venueId,
    chain: position.chain as Chain,
    standard: position.standard as VenueStandard,
  });
}

/** The position value on chain, through the adapter; any failure is a reason, never a number. */
async function readValue(
  parameters: HarvestParameters,
  position: StakedPosition,
): Promise<Reading> {
  const venue = venueOf(position, parameters.venues);
  if (!venue) return { status: 'unavailable', reason: 'venue_not_in_catalog' };
  const chain = position.chain as Chain;
  try {
    const owner = ownerOn(parameters.adapters, parameters.address, chain);
    const value = await parameters.adapters[chain].readPositionValue(venue, owner);
    return value.status === 'ok' ? value : { status: 'unavailable', reason: value.reason };
  } catch (error) {
    return {
      status: 'unavailable',
      reason: `position_read_failed: ${errorMessage(error)}`,
    };
  }
}

function positionResult(
  position: StakedPosition,
  fields: Partial<HarvestPositionResult> & Pick<HarvestPositionResult, 'outcome'>,
): HarvestPositionResult {
  return {
    chain: position.chain as Chain,
    opportunityId: position.opportunityId,
    venueId: position.venueId,
    harvestId: null,
    valueMicros: null,
    basisMicros: null,
    grossYieldMicros: ZERO,
    protocolFeeMicros: ZERO,
    profitFeeMicros: ZERO,
    netYieldMicros: ZERO,
    ...fields,
  };
}

/**
 * The position measured against its basis (staked + fees retained): gross = value − basis,
 * split by packages/fees; `fees` undefined when there is no yield.
 */
async function measure(
  db: PrismaClientOrTransaction,
  key: PositionKey,
  valueMicros: bigint,
  schedule: FeeSchedule,
) {
  const basis = await readHarvestBasis(db, key);
  const basisMicros = basis.stakedMicros + basis.feesRetainedMicros;
  const fees =
    valueMicros > basisMicros
      ? computeHarvestFees({ grossYieldMicros: valueMicros - basisMicros, schedule })
      : undefined;
  return {
    basisMicros,
    fees,
    measured: { valueMicros: formatMicros(valueMicros), basisMicros: formatMicros(basisMicros) },
  };
}

const amounts = (fees: ReturnType<typeof computeHarvestFees>) => ({
  grossYieldMicros: formatMicros(fees.grossYieldMicros),
  protocolFeeMicros: formatMicros(fees.protocolFeeMicros),
  profitFeeMicros: formatMicros(fees.profitFeeMicros),
  netYieldMicros: formatMicros(fees.netYieldMicros),
});

/**
 * Books one position's yield in `tx`: under a per-position lock, with no open leg
 * that could already have moved the position on chain, gross = value − (staked + fees retained);
 * external → fees:protocol (skim + profit fee) and external → staked (net, compounded); the
 * harvest row, `harvest.completed` and `position.updated` are written with it.
 */
async function bookPosition(
  tx: Prisma.TransactionClient,
  parameters: HarvestParameters,
  wallet: string,
  position: StakedPosition,
  reading: { readonly valueMicros: bigint; readonly asOf: Date },
): Promise<HarvestPositionResult> {
  const schedule = parameters.schedule ?? defaultFeeSchedule;
  const chain = position.chain as LedgerChain;
  const key: PositionKey = { wallet, chain, opportunityId: position.opportunityId };
  await lockPositionForHarvest(tx, key);
  const open = await countOpenPositionLegs(tx, {
    ...key,
    venueId: position.venueId as string,
    since: new Date(parameters.now.getTime() - HARVEST_OPEN_LEG_WINDOW_MS),
  });
  if (open > 0) {
    return positionResult(position, {
      outcome: 'unavailable',
      reason: `settlement_pending: ${open} leg(s) moving this position are not settled yet`,
      valueMicros: formatMicros(reading.valueMicros),
    });
  }
  const { basisMicros, fees, measured } = await measure(tx, key, reading.valueMicros, schedule);
  if (!fees) return positionResult(position, { outcome: 'no_yield', ...measured });

  const feeMicros = fees.protocolFeeMicros + fees.profitFeeMicros;
  const postings: PostingInput[] = [
    { account: { system: 'external', chain }, amountMicros: -fees.grossYieldMicros },
    {
      account: { wallet, chain, bucket: `staked:${position.opportunityId}` },
      amountMicros: fees.netYieldMicros,
    },
  ];
  if (feeMicros > 0n) {
    postings.push({ account: { system: 'fees:protocol' }, amountMicros: feeMicros });
  }
  const harvestId = newHarvestId();
  const { entryId } = await postJournalEntry(tx, {
    kind: 'harvest',
    dedupeKey: `harvest:${harvestId}`,
    memo: `harvest ${position.opportunityId} on ${chain}`,
    postings,
  });
  await insertHarvest(tx, {
    ...key,
    id: harvestId,
    venueId: position.venueId as string,
    entryId,
    valueMicros: reading.valueMicros,
    valueAsOf: reading.asOf,
    basisMicros,
    grossMicros: fees.grossYieldMicros,
    protocolFeeMicros: fees.protocolFeeMicros,
    profitFeeMicros: fees.profitFeeMicros,
    netMicros: fees.netYieldMicros,
  });
  const result = positionResult(position, {
    outcome: 'harvested',
    harvestId,
    ...measured,
    ...amounts(fees),
  });
  const completed: HarvestCompletedData = {
    harvestId,
    wallet,
    chain,
    opportunityId: position.opportunityId,
    venueId: position.venueId,
    ...measured,
    ...amounts(fees),
    asOf: reading.asOf.toISOString(),
  };
  const updated: PositionUpdatedData = {
    wallet,
    chain,
    cause: 'harvested',
    planId: null,
    legIndex: null,
    txId: null,
    harvestId,
  };
  await insertOutboxEvents(
    tx,
    [
      { type: 'harvest.completed', wallet, payload: completed },
      { type: 'position.updated', wallet, payload: updated },
    ],
    parameters.now,
  );
  return result;
}

/** What `execute: true` answers: the amounts a claim would realise now; nothing is booked. */
async function preparePosition(
  parameters: HarvestParameters,
  wallet: string,
  position: StakedPosition,
  reading: { readonly valueMicros: bigint },
): Promise<HarvestPositionResult> {
  const key: PositionKey = {
    wallet,
    chain: position.chain as LedgerChain,
    opportunityId: position.opportunityId,
  };
  const { fees, measured } = await measure(
    parameters.db,
    key,
    reading.valueMicros,
    parameters.schedule ?? defaultFeeSchedule,
  );
  return positionResult(position, {
    outcome: fees ? 'prepared' : 'no_yield',
    ...measured,
    ...(fees ? amounts(fees) : {}),
  });
}

const ZERO_TOTALS = {
  grossYieldMicros: ZERO,
  protocolFeeMicros: ZERO,
  profitFeeMicros: ZERO,
  netYieldMicros: ZERO,
};

function total(positions: readonly HarvestPositionResult[], field: keyof typeof ZERO_TOTALS) {
  return formatMicros(positions.reduce((sum, position) => sum + BigInt(position[field]), 0n));
}

function totals(positions: readonly HarvestPositionResult[]) {
  return {
    grossYieldMicros: total(positions, 'grossYieldMicros'),
    protocolFeeMicros: total(positions, 'protocolFeeMicros'),
    profitFeeMicros: total(positions, 'profitFeeMicros'),
    netYieldMicros: total(positions, 'netYieldMicros'),
  };
}

/** The SPEC outcome from the positions' outcomes (Harvest outcomes table). */
function summarize(
  parameters: HarvestParameters,
  wallet: string,
  positions: readonly HarvestPositionResult[],
): HarvestResult {
  const base = { wallet, positions: [...positions], asOf: parameters.now.toISOString() };
  const prepared = positions.filter((position) => position.outcome === 'prepared');
  if (prepared.length > 0) {
    const chains = [...new Set(prepared.map((position) => position.chain))];
    const off = chains.filter((chain) => !parameters.broadcastEnabled(chain));
    return {
      ...base,
      mode: 'prepare_only',
      outcome: 'prepared',
      reason:
        off.length > 0
          ? `broadcast_disabled: ${off.join(', ')}; nothing was booked`
          : 'owner_signature_required: the service holds no keys; nothing was booked',
      ...totals(prepared),
      prepared: true,
      httpStatus: 202,
    };
  }
  const harvested = positions.filter((position) => position.outcome === 'harvested');
  if (harvested.length > 0) {
    return {
      ...base,
      mode: 'compound',
      outcome: 'harvested',
      ...totals(harvested),
      httpStatus: 200,
    };
  }
  const unavailable = positions.find((position) => position.outcome === 'unavailable');
  if (unavailable) {
    return {
      ...base,
      mode: 'harvest',
      outcome: 'unavailable',
      reason: unavailable.reason ?? 'yield_source_unavailable',
      ...ZERO_TOTALS,
      httpStatus: 200,
    };
  }
  return {
    ...base,
    mode: 'no_op_harvest',
    outcome: 'blocked',
    reason: positions.length === 0 ? 'nothing_staked' : 'no_yield',
    ...ZERO_TOTALS,
    httpStatus: 200,
  };
}

/**
 * POST /wallets/{address}/harvest (permissionless): recognises the yield each staked position
 * has earned since it was last measured. The value is read from the venue position on chain
 * through the adapter (never from the request); gross = value − basis, where the basis is the
 * staked balance plus the fees earlier harvests left in the position. The skim (500 bps) and
 * the profit fee (when switched on) go to protocol fees, the rest is compounded into the staked
 * balance, all through packages/fees. Per position: `harvested`, `no_yield`, or `unavailable`
 * with a reason (the chain cannot be read, the venue is not in the catalog, or a leg moving the
 * position is not settled yet — its money may already be on chain, so it is not yield).
 * `execute: true` prepares only: 202 with `prepared: true` and the amounts, nothing booked.
 */
export async function harvestWallet(parameters: HarvestParameters): Promise<HarvestResult> {
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  const staked = (await readStakedPositions(parameters.db, wallet)).filter(
    (position) =>
      position.balanceMicros > 0n && (!parameters.chain || position.chain === parameters.chain),
  );
  const { recordWrite } = parameters;
  if (recordWrite && !parameters.execute) {
    const readings: Reading[] = [];
    for (const position of staked) readings.push(await readValue(parameters, position));
    return runLedgerTransaction(parameters.db, async (tx) => {
      const positions: HarvestPositionResult[] = [];
      for (const [index, position] of staked.entries()) {
        const reading = readings[index] as Reading;
        positions.push(
          reading.status === 'unavailable'
            ? positionResult(position, { outcome: 'unavailable', reason: reading.reason })
            : await bookPosition(tx, parameters, wallet, position, reading),
        );
      }
      const result = summarize(parameters, wallet, positions);
      await recordWrite(tx, result);
      return result;
    });
  }
  const positions: HarvestPositionResult[] = [];
  for (const position of staked) {
    const reading = await readValue(parameters, position);
    if (reading.status === 'unavailable') {
      positions.push(positionResult(position, { outcome: 'unavailable', reason: reading.reason }));
    } else if (parameters.execute) {
      positions.push(await preparePosition(parameters, wallet, position, reading));
    } else {
      positions.push(
        await runLedgerTransaction(parameters.db, (tx) =>
          bookPosition(tx, parameters, wallet, position, reading),
        ),
      );
    }
  }
  return summarize(parameters, wallet, positions);
}
