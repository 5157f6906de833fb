import { Client } from 'pg';
import { TEST_ADMIN_URL, createTestDatabase } from './testing';

describe('createDatabase on PostgreSQL', () => {
  it('survives the server closing its idle connections and keeps answering', async () => {
    const test = await createTestDatabase();
    try {
      await test.db.$queryRaw`SELECT 1`;
      const name = new URL(test.url).pathname.slice(1);
      const admin = new Client({ connectionString: TEST_ADMIN_URL });
      await admin.connect();
      try {
        const killed = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        expect(killed.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      const rows = await test.db.$queryRaw<{ one: number }[]>`SELECT 1 AS one`;
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await test.drop();
    }
  });
});
