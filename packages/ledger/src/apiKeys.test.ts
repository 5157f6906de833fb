import {
  createApiKey,
  findActiveApiKeyByHash,
  hashApiKey,
  listApiKeys,
  revokeApiKey,
} from './apiKeys';
import type { TestDatabase } from './testing';
import { createTestDatabase } from './testing';

const SECRET = 'ledger-test-secret-ledger-test-secret';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe('api keys', () => {
  it('stores only the hash; finds the key by hash; lists without hashes', async () => {
    const created = await createApiKey(
      t.db,
      { role: 'owner', wallets: ['w1'], label: 'ci' },
      SECRET,
    );
    expect(created.key).toMatch(/^svc_owner_[A-Za-z0-9_-]{43}$/);
    const raw = await t.db.$queryRaw<Array<{ key_hash: string }>>`SELECT key_hash FROM api_keys`;
    expect(raw.map((row) => row.key_hash)).toContain(hashApiKey(created.key, SECRET));
    expect(JSON.stringify(raw)).not.toContain(created.key);
    const found = await findActiveApiKeyByHash(t.db, hashApiKey(created.key, SECRET));
    expect(found).toMatchObject({ id: created.id, role: 'owner', wallets: ['w1'], label: 'ci' });
    const listed = await listApiKeys(t.db);
    expect(listed.find((key) => key.id === created.id)).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain('keyHash');
  });

  it('a different secret does not find the key', async () => {
    const created = await createApiKey(t.db, { role: 'agent', wallets: [] }, SECRET);
    expect(await findActiveApiKeyByHash(t.db, hashApiKey(created.key, 'other-secret'))).toBeNull();
  });

  it('revocation is final and reported once', async () => {
    const created = await createApiKey(t.db, { role: 'keeper', wallets: [] }, SECRET);
    expect(await revokeApiKey(t.db, created.id)).toBe(true);
    expect(await revokeApiKey(t.db, created.id)).toBe(false);
    expect(await revokeApiKey(t.db, 'key_unknown')).toBe(false);
    expect(await findActiveApiKeyByHash(t.db, hashApiKey(created.key, SECRET))).toBeNull();
  });

  it('the hash column is unique', async () => {
    const data = {
      id: 'key_dup1',
      keyHash: 'same',
      prefix: 'p',
      role: 'owner' as const,
      wallets: [],
    };
    await t.db.apiKey.create({ data });
    await expect(t.db.apiKey.create({ data: { ...data, id: 'key_dup2' } })).rejects.toMatchObject({
      code: 'P2002',
    });
  });
});
