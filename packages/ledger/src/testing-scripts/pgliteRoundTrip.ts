import type { Books } from '../books';
// Run by createDatabase.pglite.test.ts in its own process (PGlite's WebAssembly loader wants
// real ESM, which jest's CommonJS sandbox does not give it).
import { createApiKey, findActiveApiKeyByHash, hashApiKey } from '../apiKeys';
import { DatabaseInUseError, createDatabase } from '../createDatabase';
import { insertOutboxEvents } from '../legs';
import { confirmedRouteOutcome, reserveRouteLeg } from '../testing';
import { readBalancesOf } from '../walletReads';

/** A route leg reserved and then settled through the driver-level client and its batches. */
async function settleOneLeg(db: Books): Promise<string> {
  const planId = `plan_${'a'.repeat(32)}`;
  const wallet = 'pglite-wallet';
  await reserveRouteLeg(db, { planId, wallet, amountMicros: 7n });
  const found = await db.settlements.find({ planId, legIndex: 0, txId: 'tx-1' });
  await db.settlements.record(
    confirmedRouteOutcome(planId, wallet, found?.leg.amountMicros ?? 0n, 'tx-1'),
  );
  const rows = await readBalancesOf(db, [wallet]);
  // Accounts that hold nothing (pending_in, once settled) are not listed.
  return rows.map((row) => `${row.bucket}=${row.balanceMicros}`).join(',');
}

/** Commits one outbox event; true when `Books.listen` heard it (PGlite's own LISTEN, 0051). */
async function notifiedOnCommit(db: Books): Promise<boolean> {
  let heard = 0;
  const unlisten = await db.listen('ledger_outbox', () => (heard += 1));
  await db.transaction((tx) =>
    insertOutboxEvents(tx, [{ type: 'apy.updated', wallet: null, payload: {} }], new Date()),
  );
  for (let waited = 0; heard === 0 && waited < 2000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await unlisten();
  return heard > 0;
}

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: pgliteRoundTrip <dataDir>');
  const first = await createDatabase({ dataDir });
  const refused = await createDatabase({ dataDir }).then(
    () => false,
    (error: unknown) => error instanceof DatabaseInUseError,
  );
  const created = await createApiKey(first, { role: 'owner', wallets: ['w'] }, 's'.repeat(32));
  await first.close();
  const second = await createDatabase({ dataDir });
  const found = await findActiveApiKeyByHash(second, hashApiKey(created.key, 's'.repeat(32)));
  const migrations = await second.$queryRaw<
    Array<{ n: bigint }>
  >`SELECT count(*) AS n FROM "_svc_migrations"`;
  const settled = await settleOneLeg(second);
  const notified = await notifiedOnCommit(second);
  await second.close();
  process.stdout.write(
    JSON.stringify({
      refused,
      kind: second.kind,
      found: found?.id === created.id,
      migrations: Number(migrations[0]?.n),
      settled,
      notified,
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(String(error instanceof Error ? error.stack : error));
  process.exit(1);
});
