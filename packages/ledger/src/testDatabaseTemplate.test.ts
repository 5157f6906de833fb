import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { loadMigrations } from './migrate';
import { TEST_ADMIN_URL, createTestDatabase } from './testing';
import { testTemplateName } from './testDatabaseTemplate';

const appliedAt = async (url: string) => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query<{ name: string; applied_at: Date }>(
      'SELECT "name", "applied_at" FROM "_svc_migrations" ORDER BY "name"',
    );
    return rows.rows.map((row) => [row.name, row.applied_at.toISOString()]);
  } finally {
    await client.end();
  }
};

describe('createTestDatabase', () => {
  it('clones the migrated template: every migration applied once, before the test started', async () => {
    const startedAt = Date.now();
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      const [a, b] = await Promise.all([appliedAt(first.url), appliedAt(second.url)]);
      expect(a.map(([name]) => name)).toEqual(loadMigrations().map((m) => m.name));
      // The same rows in both, to the microsecond: neither database ran a migration itself.
      expect(b).toEqual(a);
      expect(Date.parse(a[0]?.[1] ?? '')).toBeLessThanOrEqual(startedAt + 1);
      const admin = new Client({ connectionString: TEST_ADMIN_URL });
      await admin.connect();
      try {
        const template = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [
          testTemplateName(),
        ]);
        expect(template.rowCount).toBe(1);
      } finally {
        await admin.end();
      }
    } finally {
      await Promise.all([first.drop(), second.drop()]);
    }
  });

  it('names the template after the migrations, so an added or edited one gets a fresh template', () => {
    expect(testTemplateName()).toMatch(/^svc_tpl_[0-9a-f]{16}$/);
    expect(testTemplateName()).toBe(testTemplateName());
  });

  it('gives PGlite test databases a copy of the migrated template: migrated once, before', () => {
    const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');
    const output = execFileSync(
      tsx,
      [path.join(__dirname, 'testing-scripts', 'pgliteTemplateCopies.ts')],
      { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8', timeout: 120_000 },
    );
    const { first, second } = JSON.parse(output) as { first: string[]; second: string[] };
    expect(first).toHaveLength(loadMigrations().length);
    // Both copies carry the template's rows: neither database ran a migration itself.
    expect(second).toEqual(first);
  }, 150_000);
});
