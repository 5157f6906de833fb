import { LedgerError, insertAutoPayRun, insertPlan } from '@yieldrouter/ledger';
import type { PlanLegInput, Books, WriteRecorder } from '@yieldrouter/ledger';
import type {
  AutoPayRunDocument,
  Blocker,
  Chain,
  LegBuild,
  VenueStandard,
} from '@yieldrouter/schemas';
import { formatMicros, newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { chainGuardrailBlockers } from '../guardrail/checkGuardrails';
import { readGuardrails } from '../guardrail/readGuardrails';
import { EngineError } from '../errors';
import { storedLeg } from '../plan/legDocument';
import {
  inlineSkimOf,
  planWithdrawSkim,
  routerSkimOn,
  skimDisclosure,
  skimmedLegs,
} from '../plan/withdrawSkim';
import type { Treasuries, WithdrawSkim } from '../plan/withdrawSkim';
import { ownerHoldsReceipts } from '../wallet/skimBooking';
import { planDocument, planRecord } from '../plan/planDocument';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';
import { venueAccounts, withSimulation } from '../simulation/simulatePlan';
import { ledgerWallet, ownerOn } from '../wallet/walletAddress';
import { computeAutoPayRun, splitDocument } from './computeAutoPayRun';
import type { AutoPayRun, AutoPayRunOutcome, AutoPayTarget } from './computeAutoPayRun';
import { poolClaimReader } from './readPoolClaim';
import type { SplitPayout } from './splitAutoPay';

export interface RunAutoPayParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The wallet as named in the path. */
  readonly address: string;
  readonly target: AutoPayTarget;
  readonly now: Date;
  /** Where the owner holds the receipts, the withdraw leg pays the skim to the chain's treasury. */
  readonly treasuries?: Treasuries | undefined;
  /** Stores the answer with the plan and the run, in their transaction (Idempotency-Key). */
  readonly recordWrite?: WriteRecorder<AutoPayRunDocument> | undefined;
}

const REFUSALS = {
  auto_pay_off: 'AUTO_PAY_OFF',
  auto_pay_nothing_payable: 'AUTO_PAY_NOTHING_PAYABLE',
  auto_pay_would_touch_principal: 'AUTO_PAY_WOULD_TOUCH_PRINCIPAL',
  yield_source_unavailable: 'SERVICE_UNAVAILABLE',
} as const;

function readyOrRefused(outcome: AutoPayRunOutcome): AutoPayRun {
  if (outcome.status === 'ready') return outcome;
  const code = outcome.blocker.code as keyof typeof REFUSALS;
  throw new EngineError(REFUSALS[code], outcome.blocker.message);
}

/** The same pool, amount and payouts: what the run computed before its transaction still holds. */
const sameRun = (a: AutoPayRun, b: AutoPayRunOutcome) =>
  b.status === 'ready' &&
  a.pool.chain === b.pool.chain &&
  a.pool.opportunityId === b.pool.opportunityId &&
  a.fromReturnedMicros === b.fromReturnedMicros &&
  a.split.payouts.map((payout) => payout.amountMicros).join() ===
    b.split.payouts.map((payout) => payout.amountMicros).join();

interface BuiltLegs {
  readonly build: LegBuild;
  /** The stored legs, each with what its receipt settles as. */
  readonly legs: readonly PlanLegInput[];
  /** The transfer legs, by index, with the payee each pays. */
  readonly payoutLegs: readonly PayoutLeg[];
  /** The withdraw plan's skim the withdraw leg carries (owner-held receipts), if any. */
  readonly skim?: WithdrawSkim | undefined;
  /** The Solana router's skim the withdraw leg was grossed up by, as stored with the plan. */
  readonly routerSkim?: { readonly amountMicros: string; readonly grossMicros: string };
}

interface PayoutLeg {
  readonly legIndex: number;
  readonly payee: SplitPayout;
}

/**
 * The withdraw leg(s) of the payout from the venue to the owner (none when shares returned by
 * earlier runs pay it all), then a transfer per payee. Where the owner holds the receipts (Sui,
 * plain EVM venues) the withdrawal carries the withdraw plan's skim (issue #46): the venue pays
 * the payout grossed up, the yield's skim goes to the treasury (EVM: the next leg; Sui: split off
 * in the same transaction) and the payees get exactly their payouts. On Solana the router takes
 * its skim inside the withdrawal: the leg is grossed up for it the same way.
 */
async function buildLegs(
  parameters: RunAutoPayParameters,
  run: AutoPayRun,
  planId: string,
  owner: string,
): Promise<BuiltLegs> {
  const chain = run.pool.chain as Chain;
  const adapter = parameters.adapters[chain];
  const venue = venueOnChain(parameters.venues, {
    venueId: run.pool.venueId,
    chain,
    standard: run.pool.standard as VenueStandard,
  });
  const paid = run.split.payouts.filter((payout) => payout.amountMicros > 0n);
  const withdrawMicros = run.split.amountMicros - run.fromReturnedMicros;
  const opportunity = { chain, opportunityId: run.pool.opportunityId };
  // The withdraw plan's skim: where the owner holds the receipts, the one the leg carries to
  // the treasury; on Solana the router's, the leg grossed up for it (`grossUpRouterWithdrawal`).
  // Either way the venue pays the payout grossed up and the payees get exactly their payouts.
  const skim =
    withdrawMicros > 0n
      ? await planWithdrawSkim({
          ...parameters,
          opportunity,
          venue,
          owner,
          amountMicros: withdrawMicros,
        })
      : undefined;
  const builds = [
    withdrawMicros > 0n
      ? await adapter.buildWithdraw({
          planId,
          owner,
          amountMicros: skim?.grossMicros ?? withdrawMicros,
          target: { kind: 'venue', venue },
          ...(skim?.skim ? { skim: skim.skim } : {}),
        })
      : ({ status: 'prepared', legs: [] } satisfies LegBuild),
    ...(await Promise.all(
      paid.map((payout) =>
        adapter.buildTransfer({
          planId,
          owner,
          recipient: payout.address,
          amountMicros: payout.amountMicros,
        }),
      ),
    )),
  ];
  const blockers: Blocker[] = builds.flatMap((build) =>
    build.status === 'blocked' ? [...build.blockers] : [],
  );
  if (blockers.length > 0) {
    return { build: { status: 'blocked', blockers }, legs: [], payoutLegs: [] };
  }
  const [withdraw, ...transfers] = builds.map((build) =>
    build.status === 'prepared' ? build.legs : [],
  );
  const withdrawLegs = withdraw ?? [];
  const legs: PlanLegInput[] = skim?.stored
    ? skimmedLegs({ status: 'prepared', legs: withdrawLegs }, 'unstake_yield', run.pool.venueId)
    : withdrawLegs.map((leg) => storedLeg(leg, 'unstake_yield', run.pool.venueId));
  const payoutLegs: PayoutLeg[] = [];
  paid.forEach((payee, index) => {
    for (const leg of transfers[index] ?? []) {
      if (leg.settles) payoutLegs.push({ legIndex: legs.length, payee });
      legs.push(storedLeg(leg, 'pay_out', null));
    }
  });
  const all = [...withdrawLegs, ...transfers.flat()];
  // The router could not gross the leg up (its basis unreadable, or the payout beyond the
  // owner's net of everything): it still takes its skim inside the withdrawal, and the
  // simulation judges the owner against the leg less it.
  const ungrossed =
    withdrawMicros > 0n && !ownerHoldsReceipts(chain) && skim?.routerSkimMicros === undefined;
  const routerSkimMicros = ungrossed
    ? await routerSkimOn({ ...parameters, opportunity, venue, owner }, withdrawMicros)
    : 0n;
  const carried = routerSkimMicros > 0n ? { grossMicros: withdrawMicros, routerSkimMicros } : skim;
  // The router's skim the leg was grossed up by, kept with the plan (`request.routerSkim`): the
  // pool commits the payees' part of the leg, its amount less it (migration 0069).
  const routerSkim =
    skim?.routerSkimMicros === undefined
      ? undefined
      : {
          amountMicros: formatMicros(skim.routerSkimMicros),
          grossMicros: formatMicros(skim.grossMicros),
        };
  return {
    build: { status: 'prepared', legs: all },
    legs,
    payoutLegs,
    skim: carried,
    ...(routerSkim ? { routerSkim } : {}),
  };
}

/**
 * POST /wallets/{address}/auto-pay (owner): prepares a plan paying the payable yield of one
 * position to the payees: a withdraw leg of the payout from the venue to the owner, then one
 * transfer leg per payee (floor(pool × weightBps / 10000) each; dust skipped, caps applied,
 * remainders kept). Shares an earlier run withdrew whose payout was released sit in the owner's
 * liquid: the run pays them from there first (held in auto_pay for its transfer legs at once),
 * and withdraws only the rest. The owner signs every leg; each settles from its receipt (withdraw: staked →
 * auto_pay; transfer: auto_pay → the payee). The plan, the run and the payout it commits
 * against the pool are stored in one transaction under the pool's lock, so two runs never pay
 * the same yield. Refused (422, nothing stored) when auto-pay is off or paused, nothing is
 * payable, or the payout would touch principal; stored `blocked` (guardrail_chain_not_allowed)
 * when the wallet's guardrails do not allow the position's chain.
 */
export async function runAutoPay(parameters: RunAutoPayParameters): Promise<AutoPayRunDocument> {
  const { db, adapters, now } = parameters;
  const wallet = ledgerWallet(adapters, parameters.address);
  // One chain read per position, shared by the check before the transaction and the one in it.
  const claimOf = poolClaimReader(db, adapters, parameters.venues, wallet);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const run = readyOrRefused(
      await computeAutoPayRun(db, wallet, parameters.target, now, { claimOf }),
    );
    const chain = run.pool.chain as Chain;
    const owner = ownerOn(adapters, parameters.address, chain);
    const planId = newPlanId();
    // The wallet's guardrails: a chain the owner has not allowed pays nothing (the plan is
    // stored blocked, naming the guardrail, as a route is). Venue rules never hold an exit back.
    const refused = chainGuardrailBlockers(await readGuardrails(db, wallet), chain);
    const built: BuiltLegs =
      refused.length > 0
        ? { build: { status: 'blocked', blockers: refused }, legs: [], payoutLegs: [] }
        : await buildLegs(parameters, run, planId, owner);
    const parts = {
      planId,
      kind: 'auto_pay' as const,
      chain,
      amountMicros: run.split.amountMicros,
      feeMicros: run.feeMicros,
      build: built.build,
      venue: {
        strategyId: run.pool.venueId,
        opportunityId: run.pool.opportunityId,
        venueId: run.pool.venueId,
      },
      disclosure: {
        owner,
        wallet,
        split: splitDocument(run),
        ...skimDisclosure(built.skim, built.build),
      },
      createdAt: now,
    };
    // Issue 44: the legs simulated on their chain, stored with the plan and shown in its answer.
    const { plan: record, document } = await withSimulation(
      adapters,
      {
        plan: {
          ...planRecord(parts, {
            venueId: run.pool.venueId,
            owner,
            wallet,
            request: {
              ...parameters.target,
              ...(built.skim?.stored ? { skim: built.skim.stored } : {}),
              ...(built.routerSkim ? { routerSkim: built.routerSkim } : {}),
            },
            effect: 'unstake_yield',
          }),
          legs: built.legs,
        },
        document: planDocument(parts) as AutoPayRunDocument,
      },
      {
        venue: venueAccounts(
          venueOnChain(parameters.venues, {
            venueId: run.pool.venueId,
            chain,
            standard: run.pool.standard as VenueStandard,
          }),
        ),
        treasury: built.skim?.stored ? [built.skim.stored.recipient] : [],
        payee: built.payoutLegs.map(({ payee }) => payee.address),
        // The skim the withdraw leg pays inside its own transaction (Sui, the Solana router).
        legSkims: inlineSkimOf(built.skim, built.legs),
      },
    );
    const stored = await db
      .transaction(async (tx) => {
        const again = await computeAutoPayRun(tx, wallet, parameters.target, now, {
          lock: true,
          claimOf,
        });
        if (!sameRun(run, again)) return false;
        await insertPlan(tx, record);
        await parameters.recordWrite?.(tx, document);
        if (built.build.status === 'prepared') {
          await insertAutoPayRun(tx, {
            planId,
            wallet,
            chain,
            opportunityId: run.pool.opportunityId,
            amountMicros: run.split.amountMicros,
            fromReturnedMicros: run.fromReturnedMicros,
            payouts: built.payoutLegs.map(({ legIndex, payee }) => ({
              legIndex,
              payeeId: payee.payeeId,
              address: payee.address,
              weightBps: payee.weightBps,
              amountMicros: payee.amountMicros,
            })),
            now,
          });
        }
        return true;
      })
      .catch((error: unknown) => {
        // The liquid a returned share is held from moved meanwhile (the owner spent it): the run
        // is computed again from what liquid holds now.
        if (error instanceof LedgerError && error.code === 'INSUFFICIENT_BALANCE') return false;
        throw error;
      });
    if (stored) return document;
  }
  throw new EngineError(
    'SERVICE_UNAVAILABLE',
    `the auto-pay pool of ${wallet} kept moving while the run was prepared; nothing was stored, try again`,
  );
}
