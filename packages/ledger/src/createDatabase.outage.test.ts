import type { Books } from './books';
import { createDatabase } from './createDatabase';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './databaseUnavailable';
import { createTestDatabase, endDatabaseConnections, startTcpProxy } from './testing';
import type { TcpProxy, TestDatabase } from './testing';
import { readBalancesOf } from './walletReads';

// PostgreSQL ending the connections (pg_terminate_backend, as a restart or failover does) or
// going away: no client error goes unhandled, the pool never waits forever for a dead
// connection, errors say "database unavailable", and the next statements run on new ones.

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test?.drop());

const endConnections = endDatabaseConnections;

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connections the server ends', () => {
  it('a transaction cut between two statements fails as unavailable; closing does not hang', async () => {
    const db = await createDatabase({ databaseUrl: test.url, migrate: false, poolSize: 2 });
    const work = db.transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      await endConnections(test.url);
      await tick(200);
      await tx.$queryRaw`SELECT 1`;
    });
    const failure = await work.then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    // Both pool slots still serve: the dead connection was given back.
    await Promise.all([db.$queryRaw`SELECT 1`, db.$queryRaw`SELECT 2`]);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      db.close().then(() => 'closed'),
      new Promise((resolve) => (timer = setTimeout(resolve, 5000, 'still waiting'))),
    ]);
    clearTimeout(timer);
    expect(closed).toBe('closed');
  });

  it('a read on the hot path runs again on a fresh connection', async () => {
    const db = test.db;
    await Promise.all([readBalancesOf(db, ['w1']), readBalancesOf(db, ['w2'])]);
    expect(await endConnections(test.url)).toBeGreaterThan(0);
    // The pool still holds the ended connections as idle: the first statements meet them.
    await expect(
      Promise.all([readBalancesOf(db, ['w1']), readBalancesOf(db, ['w2'])]),
    ).resolves.toEqual([[], []]);
  });
});

describe('PostgreSQL away, then back', () => {
  let proxy: TcpProxy;
  let db: Books;
  beforeAll(async () => {
    const target = new URL(test.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(test.url);
    url.host = proxy.address;
    db = await createDatabase({ databaseUrl: url.toString(), migrate: false, poolSize: 3 });
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => undefined);
    await db?.close();
    await proxy?.close();
  });

  it('every call fails as unavailable while it is away, and works again when it returns', async () => {
    await db.$queryRaw`SELECT 1`;
    await proxy.cut();
    const sqlError = await readBalancesOf(db, ['w1']).catch((error: unknown) => error);
    expect(sqlError).toBeInstanceOf(DatabaseUnavailableError);
    const prismaError = await db.plan.count().catch((error: unknown) => error);
    expect(isDatabaseUnavailable(prismaError)).toBe(true);
    const txError = await db.transaction((tx) => tx.plan.count()).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(txError)).toBe(true);
    await proxy.restore();
    await expect(readBalancesOf(db, ['w1'])).resolves.toEqual([]);
    await expect(db.plan.count()).resolves.toBe(0);
  });
});

describe('isDatabaseUnavailable', () => {
  it('does not take another service refusing a connection for a database outage', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8899'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    expect(isDatabaseUnavailable(refused)).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('fetch failed', { cause: refused }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Connection is closed.'))).toBe(false);
    expect(isDatabaseUnavailable(new DatabaseUnavailableError({ cause: refused }))).toBe(true);
  });
});
