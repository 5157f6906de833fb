import { errorMessage } from '@yieldrouter/schemas';
import { listStakedWallets, readTrackedPositions } from '@yieldrouter/ledger';
import type { TrackedPosition } from '@yieldrouter/ledger';
import { runAutoPayAfterHarvest } from '../autoPay/runAutoPayAfterHarvest';
import type { HarvestBatchDocument, HarvestPositionResult } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { HarvestParameters } from './harvest';
import { harvestPositions } from './harvest';

export interface HarvestBatchParameters extends Omit<
  HarvestParameters,
  'address' | 'execute' | 'broadcastEnabled' | 'now'
> {
  /** The last wallet of the previous page; absent for the first page. */
  readonly after?: string;
  readonly pageSize: number;
  readonly now: () => Date;
}

/**
 * One page of the permissionless harvest over staked wallets (keeper schema `harvest-plan.v1`),
 * set-wise: the page's positions are read in one query, valued on chain concurrently and every
 * position with yield is booked in one statement (as `POST /wallets/{address}/harvest` would,
 * position by position). A page whose booking fails as a whole reports every wallet of it as
 * failed. `nextCursor` is the last wallet of a full page, null at the end.
 */
export async function harvestBatch(
  parameters: HarvestBatchParameters,
): Promise<HarvestBatchDocument> {
  const startedAt = parameters.now();
  const wallets = await listStakedWallets(parameters.db, {
    ...(parameters.after ? { after: parameters.after } : {}),
    limit: parameters.pageSize,
  });
  const counts = { harvested: 0, noYield: 0, unavailable: 0 };
  const sums = { gross: 0n, fees: 0n, net: 0n };
  const errors: { wallet: string; message: string }[] = [];
  let results: HarvestPositionResult[] = [];
  let positions: TrackedPosition[] = [];
  try {
    positions = (await readTrackedPositions(parameters.db, wallets)).filter(
      (position) => !parameters.chain || position.chain === parameters.chain,
    );
    results = await harvestPositions(
      // The batch books; it never prepares an on-chain claim, so broadcast never matters.
      { ...parameters, execute: false, broadcastEnabled: () => false, now: parameters.now() },
      positions,
    );
  } catch (error) {
    for (const wallet of wallets) errors.push({ wallet, message: errorMessage(error) });
  }
  // The after_harvest trigger: a run prepared for each wallet whose config asks for it.
  // harvestPositions answers position by position, in order.
  const harvested = [
    ...new Set(
      positions
        .filter((_, index) => results[index]?.outcome === 'harvested')
        .map((position) => position.wallet),
    ),
  ];
  errors.push(
    ...(await runAutoPayAfterHarvest({ ...parameters, wallets: harvested, now: parameters.now() }))
      .errors,
  );
  for (const position of results) {
    if (position.outcome === 'harvested') counts.harvested += 1;
    else if (position.outcome === 'no_yield') counts.noYield += 1;
    else counts.unavailable += 1;
    sums.gross += BigInt(position.grossYieldMicros);
    sums.fees += BigInt(position.protocolFeeMicros) + BigInt(position.profitFeeMicros);
    sums.net += BigInt(position.netYieldMicros);
  }
  return {
    schemaVersion: 'harvest-plan.v1',
    chain: parameters.chain ?? null,
    wallets: wallets.length,
    positions: counts,
    grossYieldMicros: formatMicros(sums.gross),
    feeMicros: formatMicros(sums.fees),
    netYieldMicros: formatMicros(sums.net),
    errors,
    nextCursor: wallets.length === parameters.pageSize ? (wallets.at(-1) ?? null) : null,
    startedAt: startedAt.toISOString(),
    finishedAt: parameters.now().toISOString(),
  };
}
