import { computePrincipalFee } from '@yieldrouter/fees';
import { LedgerError, insertPlan, postJournalEntry, readBalancesOf } from '@yieldrouter/ledger';
import type { Books, WriteRecorder } from '@yieldrouter/ledger';
import type { Chain, PlanDocument } from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { planDocument, planRecord } from '../plan/planDocument';
import { withSimulation } from '../simulation/simulatePlan';
import { ledgerWallet, ownerOn } from './walletAddress';

export interface PrepareExitParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  /** The wallet as named in the path. */
  readonly address: string;
  readonly amountMicros: bigint;
  /** Without it: the chain whose liquid balance is largest (and covers the amount). */
  readonly chain?: Chain;
  readonly now: Date;
  /**
   * Stores the answer with the plan and its reservation, in their transaction
   * (Idempotency-Key): a retry of the same write can never store a second plan.
   */
  readonly recordWrite?: WriteRecorder<ExitPlanDocument> | undefined;
}

export type ExitPlanDocument = PlanDocument & {
  readonly wallet: string;
  readonly pendingOutMicros: string;
};

const short = (chain: Chain | 'any', liquid: bigint, amount: bigint) =>
  new EngineError(
    'INSUFFICIENT_LIQUID',
    `body.amountMicros: ${amount} is more than the liquid balance (${liquid} on ${chain})`,
    'body.amountMicros',
  );

async function pickChain(
  parameters: PrepareExitParameters,
  wallet: string,
): Promise<{ chain: Chain; liquid: bigint }> {
  const liquid = (await readBalancesOf(parameters.db, [wallet])).filter(
    (row) => row.bucket === 'liquid' && (!parameters.chain || row.chain === parameters.chain),
  );
  const best = liquid.sort((a, b) => (a.balanceMicros > b.balanceMicros ? -1 : 1))[0];
  const chain = parameters.chain ?? (best?.chain as Chain | undefined);
  if (!chain) throw short('any', 0n, parameters.amountMicros);
  return { chain, liquid: best?.balanceMicros ?? 0n };
}

/**
 * POST /wallets/{address}/withdraw: exits principal from the wallet's liquid balance. The amount
 * is reserved (liquid → pending_out) in the same transaction that stores the plan, under the
 * balance locks, so concurrent withdrawals can never overdraw; short → 422 INSUFFICIENT_LIQUID
 * and nothing is written. The debit lands when the exit leg settles from its receipt; a failed
 * leg returns the reservation to liquid. Fee 0.
 */
export async function prepareExit(parameters: PrepareExitParameters): Promise<ExitPlanDocument> {
  const { db, adapters, amountMicros, now } = parameters;
  const wallet = ledgerWallet(adapters, parameters.address);
  const { chain, liquid } = await pickChain(parameters, wallet);
  // A cheap early answer; the reservation below is the check that counts.
  if (liquid < amountMicros) throw short(chain, liquid, amountMicros);
  const owner = ownerOn(adapters, parameters.address, chain);
  const planId = newPlanId();
  const { feeMicros } = computePrincipalFee({ amountMicros, kind: 'withdraw' });
  const build = await adapters[chain].buildWithdraw({
    planId,
    owner,
    amountMicros,
    target: { kind: 'router' },
  });
  const parts = {
    planId,
    kind: 'exit' as const,
    chain,
    amountMicros,
    feeMicros,
    build,
    disclosure: {
      owner,
      wallet: owner,
      pendingOutMicros: formatMicros(build.status === 'prepared' ? amountMicros : 0n),
    },
    createdAt: now,
  };
  // Issue 44: the legs simulated on their chain, stored with the plan and shown in its answer.
  const { plan, document } = await withSimulation(
    adapters,
    {
      plan: planRecord(parts, {
        venueId: null,
        owner,
        wallet: owner,
        request: { amountMicros: formatMicros(amountMicros), chain },
        effect: 'exit_liquid',
      }),
      document: planDocument(parts) as ExitPlanDocument,
    },
    { venue: [], treasury: [] },
  );
  try {
    await db.transaction(async (tx: Books) => {
      await insertPlan(tx, plan);
      // Before the posting: the answer needs no balance lock, so the locks are held no longer.
      await parameters.recordWrite?.(tx, document);
      if (build.status === 'prepared') {
        await postJournalEntry(tx, {
          kind: 'exit.reserved',
          dedupeKey: `exit:${planId}`,
          planId,
          memo: 'reserved for a withdrawal, waiting for the owner-signed transaction to settle',
          postings: [
            { account: { wallet: owner, chain, bucket: 'liquid' }, amountMicros: -amountMicros },
            { account: { wallet: owner, chain, bucket: 'pending_out' }, amountMicros },
          ],
        });
      }
    });
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'INSUFFICIENT_BALANCE') {
      const current = (await readBalancesOf(db, [owner])).find(
        (row) => row.chain === chain && row.bucket === 'liquid',
      );
      throw short(chain, current?.balanceMicros ?? 0n, amountMicros);
    }
    throw error;
  }
  return document;
}
