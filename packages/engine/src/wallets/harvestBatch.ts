import { errorMessage } from '@yieldrouter/schemas';
import { listStakedWallets } from '@yieldrouter/ledger';
import type { HarvestBatchDocument } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { HarvestParameters } from './harvest';
import { harvestWallet } from './harvest';

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
 * One page of the permissionless harvest over staked wallets (keeper schema `harvest-plan.v1`):
 * each wallet is harvested on its own (its positions in their own transactions), so one
 * wallet's failure is counted and reported without stopping the page. `nextCursor` is the last
 * wallet of a full page, null at the end.
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
  for (const wallet of wallets) {
    try {
      const result = await harvestWallet({
        ...parameters,
        address: wallet,
        // The batch books; it never prepares an on-chain claim, so broadcast never matters.
        execute: false,
        broadcastEnabled: () => false,
        now: parameters.now(),
      });
      for (const position of result.positions) {
        if (position.outcome === 'harvested') counts.harvested += 1;
        else if (position.outcome === 'no_yield') counts.noYield += 1;
        else counts.unavailable += 1;
      }
      sums.gross += BigInt(result.grossYieldMicros);
      sums.fees += BigInt(result.protocolFeeMicros) + BigInt(result.profitFeeMicros);
      sums.net += BigInt(result.netYieldMicros);
    } catch (error) {
      errors.push({ wallet, message: errorMessage(error) });
    }
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
