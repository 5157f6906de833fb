import { insertOutboxEvents } from './legs';
import type { TestDatabase } from './testing';
import { createTestDatabase, endDatabaseConnections } from './testing';

// LISTEN/NOTIFY on PostgreSQL (migration 0051): a commit that wrote outbox events wakes a
// listener, a rollback does not, and a listener whose connection was cut listens again.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const event = { type: 'apy.updated' as const, wallet: null, payload: {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  for (let waited = 0; !check() && waited < ms; waited += 20) await sleep(20);
  return check();
}

it('wakes on a committed outbox event, not on a rolled-back one, and again after a cut', async () => {
  let heard = 0;
  const unlisten = await test.db.listen('ledger_outbox', () => (heard += 1));
  try {
    await test.db.transaction((tx) => insertOutboxEvents(tx, [event, event], new Date()));
    expect(await until(() => heard > 0)).toBe(true);
    // One notification per transaction, however many events it wrote.
    await sleep(200);
    expect(heard).toBe(1);

    await test.db
      .transaction(async (tx) => {
        await insertOutboxEvents(tx, [event], new Date());
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await sleep(300);
    expect(heard).toBe(1);

    // The server ends the listening connection: it comes back and wakes once on its own
    // (whatever was sent meanwhile is lost), then hears commits again.
    await endDatabaseConnections(test.url);
    expect(await until(() => heard === 2, 8000)).toBe(true);
    await test.db.transaction((tx) => insertOutboxEvents(tx, [event], new Date()));
    expect(await until(() => heard === 3)).toBe(true);
  } finally {
    await unlisten();
  }
});

it('one notifying transaction at a time: a commit beside an open one sends none (0052)', async () => {
  let heard = 0;
  const unlisten = await test.db.listen('ledger_outbox', () => (heard += 1));
  try {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (inserted = resolve));
    const open = test.db.transaction(async (tx) => {
      await insertOutboxEvents(tx, [event], new Date());
      inserted();
      await held;
    });
    await first;
    await test.db.transaction((tx) => insertOutboxEvents(tx, [event], new Date()));
    await sleep(300);
    expect(heard).toBe(0);
    release();
    await open;
    expect(await until(() => heard === 1)).toBe(true);
    await sleep(200);
    expect(heard).toBe(1);
  } finally {
    await unlisten();
  }
});
