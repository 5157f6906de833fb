// Reconciliation at scale (part of `BENCH_ONLY=keeper`): BENCH_RECONCILE_WALLETS positions (10 000
// by default) on the fake chain, one reconciliation run over all of them; wall time, positions/s
// against reading the same positions page by page without the chain (the baseline, same run),
// and the process's resident memory high-water mark before and after.
import { performance } from 'node:perf_hooks';
import { reconcileBooks } from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import {
  FAKE_STAKE_VENUE,
  fakeStakeVenues,
  seedFakeStakeOpportunities,
} from '@yieldrouter/engine/src/wallet/testing/stakeOnFakeChain';
import { createDatabase, listTrackedPositions } from '@yieldrouter/ledger';
import type { PositionCursor } from '@yieldrouter/ledger';
import { withDatabase } from './benchDatabase';

const WALLETS = Number(process.env['BENCH_RECONCILE_WALLETS'] ?? 10_000);
const SHARES = 5_000_000n;
const line = (text: string) => process.stdout.write(`${text}\n`);
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

export async function reconcileWalletsAtScale(): Promise<void> {
  await withDatabase(async (databaseUrl) => {
    const db = await createDatabase({ databaseUrl, poolSize: 8 });
    try {
      await seedFakeStakeOpportunities(db);
      const chain = fakeChain();
      const wallets = Array.from({ length: WALLETS }, () => fakeBase58());
      // Every wallet holds the shares the books track, and one in ten a little more besides.
      for (const [index, wallet] of wallets.entries()) {
        chain.depositOutside(wallet, FAKE_STAKE_VENUE, index % 10 === 0 ? SHARES + 1_000n : SHARES);
      }
      await db.$executeRaw`
        INSERT INTO positions (wallet, chain, opportunity_id, venue_id, shares, mark_micros)
        SELECT w, 'solana', v.opportunity_id, v.id, ${SHARES}, ${SHARES}
        FROM unnest(${wallets}::text[]) AS w, venues v WHERE v.id = ${FAKE_STAKE_VENUE}`;
      await db.$executeRaw`ANALYZE positions`;

      const readStarted = performance.now();
      let read = 0;
      let after: PositionCursor | undefined;
      for (;;) {
        const page = await listTrackedPositions(db, {
          limit: 500,
          ...(after ? { after } : {}),
        });
        read += page.length;
        const last = page.at(-1);
        if (!last || page.length < 500) break;
        after = { wallet: last.wallet, chain: last.chain, opportunityId: last.opportunityId };
      }
      const readSeconds = (performance.now() - readStarted) / 1000;

      const rssBefore = process.memoryUsage().rss;
      const peakBefore = process.resourceUsage().maxRSS * 1024;
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 20);
      const started = performance.now();
      const report = await reconcileBooks({
        db: db,
        adapters: chain.adapters,
        venues: fakeStakeVenues,
        thresholdMicros: 10_000n,
        trigger: 'manual',
        now: () => new Date(),
      });
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      if (report.positions !== WALLETS || read !== WALLETS) {
        throw new Error(`reconciled ${report.positions} and read ${read} of ${WALLETS} positions`);
      }
      if (report.drifts.untracked.count !== Math.ceil(WALLETS / 10)) {
        throw new Error(`found ${report.drifts.untracked.count} untracked drifts`);
      }
      const rate = WALLETS / seconds;
      const reads = WALLETS / readSeconds;
      line(
        `keeper: reconciliation of ${WALLETS} wallets on the fake chain ${seconds.toFixed(2)} s ` +
          `(${rate.toFixed(0)}/s vs reading them ${reads.toFixed(0)}/s → ratio ` +
          `${(rate / reads).toFixed(3)}); RSS ${megabytes(rssBefore)} MB before, peak ` +
          `${megabytes(peak)} MB during (+${megabytes(peak - rssBefore)} MB; process high-water ` +
          `${megabytes(Math.max(peakBefore, process.resourceUsage().maxRSS * 1024))} MB); ` +
          `${report.drifts.untracked.count} untracked drifts recorded`,
      );
    } finally {
      await db.close();
    }
  });
}
