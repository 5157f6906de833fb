import { findActiveApiKeyByHash, hashApiKey, listApiKeys } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { parseEnv } from './env';
import { firstOwnerKeyLines, issueFirstOwnerKey } from './firstOwnerKey';

// `pnpm start`'s first owner key: on the embedded database in development only, once.

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const embedded = { ...parseEnv({}), databaseUrl: undefined };

it('never on PostgreSQL, in production or with configured keys; nothing is stored then', async () => {
  const refused = [
    { ...embedded, databaseUrl: 'postgresql://127.0.0.1/x' },
    { ...embedded, nodeEnv: 'production' as const },
    {
      ...embedded,
      staticKeys: [{ key: 'k'.repeat(24), role: 'owner' as const, wallets: ['*'], characters: {} }],
    },
  ];
  for (const config of refused) {
    expect(await issueFirstOwnerKey(test.db, config)).toBeNull();
  }
  expect(await listApiKeys(test.db)).toEqual([]);
});

it('on the embedded database in development: one owner key for every wallet, once', async () => {
  const first = await issueFirstOwnerKey(test.db, embedded);
  expect(first).not.toBeNull();
  const stored = await findActiveApiKeyByHash(
    test.db,
    hashApiKey(first?.key ?? '', embedded.apiKeySecret),
  );
  expect(stored).toMatchObject({ id: first?.id, role: 'owner', wallets: ['*'] });
  expect(firstOwnerKeyLines(first ?? { id: '', key: '' })).toContain(first?.key);
  // A second start (or one after the key was revoked) issues none.
  expect(await issueFirstOwnerKey(test.db, embedded)).toBeNull();
  expect(await listApiKeys(test.db)).toHaveLength(1);
});
