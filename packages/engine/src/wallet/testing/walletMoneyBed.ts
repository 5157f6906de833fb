// Test support: the wallet money paths on the fake chain, as production runs them (plans
// prepared through the adapters, transactions executed by the test, legs settled from their
// receipts), with the books read back. Product code never imports it.
import { readBalancesOf, readTrackedPositions } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { Opportunity } from '@yieldrouter/schemas';
import { prepareStrategyPlan } from '../../plan/prepareStrategyPlan';
import { harvestWallet } from '../harvest';
import { prepareExit } from '../prepareExit';
import { prepareRoute } from '../prepareRoute';
import { settleLeg } from '../settleLeg';
import type { ExecuteOptions, FakeChain } from './fakeChain';
import { fakeBase58, fakeChain } from './fakeChain';
import { FAKE_STAKE_VENUE, fakeStakeVenues, seedFakeStakeOpportunities } from './stakeOnFakeChain';
import { useFakeStakeDatabase } from './useFakeStakeDatabase';

export interface WalletMoneyBed {
  readonly chain: FakeChain;
  readonly wallet: string;
  /** POST /wallets/{wallet}/route (with `stake`: into the fake stake venue). */
  route(amountMicros: bigint, stake?: boolean): Promise<string>;
  /** POST /wallets/{wallet}/withdraw. */
  withdraw(amountMicros: bigint): Promise<string>;
  /** POST /svc/strategies/{deposit|withdraw}/plan for the stake venue, owner = the wallet. */
  venuePlan(kind: 'deposit' | 'withdraw', amountMicros: bigint): Promise<string>;
  /** The owner signs the plan's leg and the chain runs it. */
  execute(planId: string, amountMicros: bigint, options?: ExecuteOptions): string;
  /** POST /svc/plans/{planId}/legs/0/settle. */
  settle(planId: string, txId: string): ReturnType<typeof settleLeg>;
  /** POST /wallets/{wallet}/harvest. */
  harvest(execute?: boolean): ReturnType<typeof harvestWallet>;
  /** The wallet's books on Solana. */
  books(): Promise<{
    liquid: bigint;
    pendingIn: bigint;
    pendingOut: bigint;
    staked: bigint;
    shares: bigint;
    mark: bigint;
    feesRetained: bigint;
  }>;
}

export const BED_VENUE = FAKE_STAKE_VENUE;

/** The stake venue's opportunities, seeded once per database. */
export async function bedOpportunities(db: Books): Promise<Opportunity[]> {
  return seedFakeStakeOpportunities(db);
}

/**
 * A jest suite's database with the stake venue seeded (`useFakeStakeDatabase`): `bed()` is a
 * new wallet on a new fake chain, or on `chain`.
 */
export function useWalletMoneyDatabase() {
  const suite = useFakeStakeDatabase();
  return {
    test: suite.test,
    bed: (chain?: FakeChain) =>
      walletMoneyBed(suite.test().db, suite.opportunities(), chain ?? fakeChain()),
  };
}

/** A new wallet on a new fake chain (or the one given). */
export function walletMoneyBed(
  db: Books,
  opportunities: readonly Opportunity[],
  chain: FakeChain = fakeChain(),
  wallet: string = fakeBase58(),
): WalletMoneyBed {
  const common = { db: db, adapters: chain.adapters, venues: fakeStakeVenues };
  return {
    chain,
    wallet,
    async route(amountMicros, stake = false) {
      const plan = await prepareRoute({
        ...common,
        opportunities,
        autoYieldVenueId: FAKE_STAKE_VENUE,
        address: wallet,
        input: { amountMicros, token: 'USDC', stake, chain: 'solana' },
        now: new Date(),
      });
      return plan.planId as string;
    },
    async withdraw(amountMicros) {
      const plan = await prepareExit({ ...common, address: wallet, amountMicros, now: new Date() });
      return plan.planId as string;
    },
    async venuePlan(kind, amountMicros) {
      const plan = await prepareStrategyPlan({
        ...common,
        opportunities,
        kind,
        request: { id: FAKE_STAKE_VENUE, idField: 'body.strategyId', amountMicros, owner: wallet },
        now: new Date(),
      });
      if (plan.status !== 'prepared') throw new Error(JSON.stringify(plan.blockers));
      return plan.planId as string;
    },
    execute: (planId, amountMicros, options) => chain.execute({ planId, amountMicros }, options),
    settle: (planId, txId) =>
      settleLeg({
        ...common,
        planId,
        legIndex: 0,
        txId,
        now: new Date(),
      }),
    harvest: (execute = false) =>
      harvestWallet({
        ...common,
        address: wallet,
        execute,
        broadcastEnabled: () => false,
        now: new Date(),
      }),
    async books() {
      const rows = await readBalancesOf(db, [wallet]);
      const of = (match: (bucket: string) => boolean) =>
        rows.filter((row) => match(row.bucket)).reduce((sum, row) => sum + row.balanceMicros, 0n);
      const [position] = await readTrackedPositions(db, [wallet]);
      return {
        liquid: of((bucket) => bucket === 'liquid'),
        pendingIn: of((bucket) => bucket === 'pending_in'),
        pendingOut: of((bucket) => bucket === 'pending_out'),
        staked: of((bucket) => bucket.startsWith('staked:')),
        shares: position?.shares ?? 0n,
        mark: position?.markMicros ?? 0n,
        feesRetained: position?.feesRetainedMicros ?? 0n,
      };
    },
  };
}
