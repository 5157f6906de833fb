// `BENCH_ONLY=autopilot`: the keeper's autopilot ticks over BENCH_AUTOPILOT_WALLETS enabled
// wallets (10 000 by default), decisions only (every wallet holds: no rebalance plan), against
// reading the same wallets' positions in the same run: one wallet at a time (the harvest row's
// baseline, the target's), and in pages as the tick reads them. Prints the resident memory
// high-water mark of the tick run.
import { performance } from 'node:perf_hooks';
import { autopilotPeriod, listOpportunities, tickDueAutopilots } from '@yieldrouter/engine';
import type { VenueConfig } from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import {
  FAKE_SECOND_VENUE,
  FAKE_STAKE_VENUE,
  fakeTwoVenues,
  seedFakeStakeOpportunities,
} from '@yieldrouter/engine/src/wallet/testing/stakeOnFakeChain';
import { createDatabase, readStakedPositions, readTrackedPositions } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { withDatabase } from './benchDatabase';

const WALLETS = Number(process.env['BENCH_AUTOPILOT_WALLETS'] ?? 10_000);
const PAGE = 200;
const STAKE = 5_000_000n;
const DAY_MS = 86_400_000;
const line = (text: string) => process.stdout.write(`${text}\n`);
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

// kamino (where every wallet is staked) and save ready on the fake Solana chain.
const venues: VenueConfig = fakeTwoVenues;

/**
 * The books of `wallets`, each with `STAKE` staked in kamino, and their enabled policies, written
 * set-wise (the reconciliation row does the same): the bench measures decisions, not staking.
 * The staked accounts are the books' own rows (`staked:<opportunity>` buckets) and the positions
 * the legs would have left; the 30-day means come from stored samples (kamino 5 %, save
 * 11.99 %: +6.99 pp, so every wallet holds).
 */
async function seedWallets(db: Books, wallets: readonly string[], now: Date): Promise<void> {
  const prisma = db;
  await seedFakeStakeOpportunities(prisma);
  await prisma.$executeRaw`
    INSERT INTO positions (wallet, chain, opportunity_id, venue_id, shares, mark_micros)
    SELECT w, 'solana', v.opportunity_id, v.id, ${STAKE}, ${STAKE}
    FROM unnest(${wallets}::text[]) AS w, venues v WHERE v.id = ${FAKE_STAKE_VENUE}`;
  await prisma.$executeRaw`
    INSERT INTO ledger_accounts (kind, wallet, chain, bucket, balance_micros)
    SELECT 'wallet', w, 'solana', 'staked:' || v.opportunity_id, ${STAKE}
    FROM unnest(${wallets}::text[]) AS w, venues v WHERE v.id = ${FAKE_STAKE_VENUE}`;
  await prisma.$executeRaw`
    INSERT INTO autopilot_policies (wallet, chain, enabled, next_tick_at, updated_at)
    SELECT w, 'solana', true, ${now}, ${now} FROM unnest(${wallets}::text[]) AS w`;
  for (const [venueId, bps] of [
    [FAKE_STAKE_VENUE, 500],
    [FAKE_SECOND_VENUE, 1199],
  ] as const) {
    await prisma.$executeRaw`
      INSERT INTO apy_samples (venue_id, source, status, apy_bps, observed_at)
      SELECT ${venueId}, 'bench', 'ok', ${bps}, ${now}::timestamptz - make_interval(days => d)
      FROM generate_series(0, 9) AS d`;
  }
  await prisma.$executeRaw`ANALYZE`;
}

export async function runAutopilotBench(): Promise<void> {
  await withDatabase(async (databaseUrl) => {
    const db = await createDatabase({ databaseUrl, poolSize: 8 });
    try {
      const now = new Date(Date.now() - DAY_MS);
      const wallets = Array.from({ length: WALLETS }, () => fakeBase58());
      await seedWallets(db, wallets, now);

      // Baselines: each wallet's staked positions one read at a time, then pages of PAGE.
      let started = performance.now();
      for (const wallet of wallets) await readStakedPositions(db, wallet);
      const oneByOne = WALLETS / ((performance.now() - started) / 1000);
      started = performance.now();
      for (let index = 0; index < WALLETS; index += PAGE) {
        await readTrackedPositions(db, wallets.slice(index, index + PAGE));
      }
      const paged = WALLETS / ((performance.now() - started) / 1000);

      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      started = performance.now();
      // The keeper job's loop (autopilot-ticks): one listing, then page after page.
      const opportunities = await listOpportunities({
        db: db,
        venues,
        enablement: [],
        now: new Date(),
      });
      const counts = { recorded: 0, switches: 0, errors: 0 };
      let after: string | undefined;
      do {
        const page = await tickDueAutopilots({
          db: db,
          adapters: fakeChain().adapters,
          venues,
          opportunities,
          pageSize: PAGE,
          ...(after ? { after } : {}),
          now: () => new Date(),
        });
        counts.recorded += page.recorded;
        counts.switches += page.switches;
        counts.errors += page.errors.length;
        after = page.nextCursor ?? undefined;
      } while (after);
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      const period = autopilotPeriod('monthly', new Date()).key;
      const recorded = await db.autopilotDecision.count({
        where: { kind: 'tick', period, outcome: 'hold', reason: 'below_threshold' },
      });
      if (counts.recorded !== WALLETS || recorded !== WALLETS || counts.switches + counts.errors) {
        throw new Error(`ticked ${JSON.stringify(counts)}, ${recorded} holds stored`);
      }
      const rate = WALLETS / seconds;
      line(
        `autopilot: ${WALLETS} enabled wallets ticked in ${seconds.toFixed(2)} s, decisions only ` +
          `(${rate.toFixed(0)} ticks/s) vs reading each wallet's positions ${oneByOne.toFixed(0)}/s ` +
          `→ ratio ${(rate / oneByOne).toFixed(3)} (target >= 0.5); vs page reads of ${PAGE} ` +
          `${paged.toFixed(0)}/s → ${(rate / paged).toFixed(3)}; RSS ${megabytes(rssBefore)} MB ` +
          `before, peak ${megabytes(peak)} MB during (+${megabytes(peak - rssBefore)} MB; process ` +
          `high-water ${megabytes(process.resourceUsage().maxRSS * 1024)} MB)`,
      );
    } finally {
      await db.close();
    }
  });
}
