import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Checks the built package (turbo runs `build` before this package's tests).
const root = join(__dirname, '..');
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  if (!existsSync(join(root, 'dist/cli.js'))) {
    throw new Error('dist/ is missing: run `pnpm --filter @yieldrouter/mcp build` first');
  }
});

describe('the published package', () => {
  it('npm pack ships the command, dist, README, LICENSE and package.json only', () => {
    const [pack] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'])) as {
      files: { path: string }[];
    }[];
    const files = pack!.files.map((file) => file.path).sort();
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

  it('publint --strict is clean', () => {
    const report = run(join(root, 'node_modules/.bin/publint'), ['--strict', '--pack', 'npm']);
    expect(report).toMatch(/All good!|No problems found/);
    expect(report).not.toMatch(/Suggestions|Warnings|Errors/);
  });

  it('attw --pack is clean (ESM and CJS resolution, node10 to bundler)', () => {
    const attw = join(root, 'node_modules/.bin/attw');
    expect(() => run(attw, ['--pack', '.', '--format', 'table-flipped'])).not.toThrow();
  }, 60_000);
});
