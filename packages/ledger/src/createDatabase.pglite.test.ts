import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadMigrations } from './migrate';

const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');

describe('createDatabase (embedded PGlite)', () => {
  it('applies migrations, refuses a second opener, finds a stored key after reopening, settles a leg', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-pglite-'));
    try {
      const output = execFileSync(
        tsx,
        [path.join(__dirname, 'testing-scripts', 'pgliteRoundTrip.ts'), dataDir],
        { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8', timeout: 60_000 },
      );
      expect(JSON.parse(output)).toEqual({
        refused: true,
        kind: 'pglite',
        found: true,
        migrations: loadMigrations().length,
        // Through the driver-level client and the grouped settlement statement.
        settled: 'liquid=7',
        // A committed outbox event wakes a listener (migration 0051).
        notified: true,
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
