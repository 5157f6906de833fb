import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Checks the built package (turbo runs `build` before this package's tests).
const root = join(__dirname, '..');
const run = (command: string, args: string[]) =>
  promisify(execFile)(command, args, { cwd: root, encoding: 'utf8' }).then(({ stdout }) => stdout);

// One `npm pack` (the file list, and the tarball publint and attw read): `publint --pack npm`
// and `attw --pack` would each run npm pack again, seconds apiece. The two linters run
// side by side from here; their tests wait for their answers.
let packDir: string;
let packed: { filename: string; files: { path: string }[] };
let publint: Promise<string>;
let attw: Promise<string>;
beforeAll(async () => {
  if (!existsSync(join(root, 'dist/cli.js'))) {
    throw new Error('dist/ is missing: run `pnpm --filter @yieldrouter/mcp build` first');
  }
  packDir = mkdtempSync(join(tmpdir(), 'mcp-pack-'));
  [packed] = JSON.parse(
    await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir]),
  ) as [typeof packed];
  const tarball = join(packDir, packed.filename);
  publint = run(join(root, 'node_modules/.bin/publint'), ['run', tarball, '--strict']);
  attw = run(join(root, 'node_modules/.bin/attw'), [tarball, '--format', 'table-flipped']);
  // Awaited by their tests; a rejection is theirs to report, not an unhandled one.
  publint.catch(() => undefined);
  attw.catch(() => undefined);
}, 60_000);
afterAll(async () => {
  await Promise.allSettled([publint, attw]);
  if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe('the published package', () => {
  it('npm pack ships the command, dist, README, LICENSE and package.json only', () => {
    const files = packed.files.map((file) => file.path).sort();
    const allowed =
      /^(package\.json|README\.md|LICENSE|bin\/yieldrouter-mcp\.cjs|dist\/[\w-]+\.(mjs|js|d\.mts|d\.ts))$/;
    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'bin/yieldrouter-mcp.cjs',
        'dist/cli.js',
        'dist/index.js',
      ]),
    );
  });

  it('bundles the internal packages; the SDKs and zod stay dependencies', () => {
    for (const file of ['dist/index.js', 'dist/cli.js', 'dist/index.d.ts']) {
      const code = readFileSync(join(root, file), 'utf8');
      expect(code).not.toMatch(/@yieldrouter\/(schemas|mcp-server)/);
      expect(code).toContain('@yieldrouter/sdk');
    }
  });

  it('publint --strict is clean', async () => {
    const report = await publint;
    expect(report).toMatch(/All good!|No problems found/);
    expect(report).not.toMatch(/Suggestions|Warnings|Errors/);
  });

  it('attw is clean on the packed tarball (ESM and CJS resolution, node10 to bundler)', async () => {
    await expect(attw).resolves.toEqual(expect.any(String));
  }, 60_000);
});
