import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// Checks the built package (turbo runs `build` before this package's tests).
const root = join(__dirname, '..');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  if (!existsSync(join(root, 'dist/index.mjs'))) {
    throw new Error('dist/ is missing: run `pnpm --filter @yieldrouter/sdk build` first');
  }
});

describe('the published package', () => {
  it('npm pack ships only dist, README, LICENSE, CHANGELOG and package.json', () => {
    const [pack] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'])) as {
      files: { path: string }[];
    }[];
    const files = pack!.files.map((file) => file.path).sort();
    const allowed =
      /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/(index|webhooks)\.(mjs|js|d\.mts|d\.ts)|dist\/chunks\/[\w.-]+\.mjs)$/;
    expect(files.filter((file) => !allowed.test(file))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'dist/index.mjs',
        'dist/index.js',
        'dist/index.d.mts',
        'dist/index.d.ts',
        'dist/webhooks.mjs',
        'dist/webhooks.js',
        'dist/webhooks.d.mts',
        'dist/webhooks.d.ts',
      ]),
    );
    // The ESM build's response schemas: one chunk per manifest domain, loaded on first use.
    expect(files.filter((file) => /^dist\/chunks\/domain\./.test(file))).toHaveLength(12);
  });

  it('the bundle carries no Node built-ins and keeps zod external', () => {
    const chunks = readdirSync(join(root, 'dist/chunks')).map((file) => `dist/chunks/${file}`);
    const codes = ['dist/index.mjs', 'dist/index.js', ...chunks].map((file) =>
      readFileSync(join(root, file), 'utf8'),
    );
    for (const code of codes) {
      expect(code).not.toMatch(/["']node:|require\(["'](fs|http|https|net|crypto|path)["']\)/);
      expect(code).not.toContain('@yieldrouter/schemas');
      expect(code).not.toMatch(/class ZodError\b/);
    }
    const importsZod = (code: string) => /from ["']zod["']|require\(["']zod["']\)/.test(code);
    expect(codes.filter(importsZod).length).toBeGreaterThan(0);
  });

  it('the webhooks entry is self-contained: no Node built-ins, no import at all', () => {
    for (const file of ['dist/webhooks.mjs', 'dist/webhooks.js']) {
      const code = readFileSync(join(root, file), 'utf8');
      expect(code).not.toMatch(/["']node:|require\(/);
      expect(code).not.toMatch(/^import /m);
      expect(code).not.toContain('@yieldrouter/webhooks');
    }
    for (const file of ['dist/webhooks.d.ts', 'dist/webhooks.d.mts']) {
      const types = readFileSync(join(root, file), 'utf8');
      expect(types).not.toMatch(/^import /m);
    }
    // The core entry does not carry the webhook helpers.
    expect(readFileSync(join(root, 'dist/index.mjs'), 'utf8')).not.toContain('X-SVC-Signature');
  });

  it('the types are self-contained: no import of the internal schemas package', () => {
    const types = readFileSync(join(root, 'dist/index.d.ts'), 'utf8');
    expect(types).not.toContain('@yieldrouter/schemas');
    expect(types.match(/^import .* from '([^']+)';$/gm)).toEqual(["import { z } from 'zod';"]);
  });

  it('publint --strict is clean', () => {
    const report = run(bin('publint'), ['--strict', '--pack', 'npm']);
    expect(report).toMatch(/All good!|No problems found/);
    expect(report).not.toMatch(/Suggestions|Warnings|Errors/);
  });

  it('attw --pack is clean (ESM and CJS resolution, node10 to bundler)', () => {
    expect(() => run(bin('attw'), ['--pack', '.', '--format', 'table-flipped'])).not.toThrow();
  }, 60_000);
});

describe('the ESM build at run time', () => {
  // Node imports dist/index.mjs, and the first response of a domain imports its chunk.
  const script = `
    import { createClient } from '${join(root, 'dist/index.mjs')}';
    const fetch = async () => new Response(JSON.stringify({ packageName: 42 }), {
      status: 200, headers: { 'content-type': 'application/json' } });
    const checked = createClient({ baseUrl: 'http://sdk.test', fetch, retries: 0 });
    const raw = createClient({ baseUrl: 'http://sdk.test', fetch, validateResponses: false });
    const error = await checked.getSdk().catch((thrown) => thrown);
    console.log(JSON.stringify({ name: error.name, field: error.field, raw: await raw.getSdk() }));
  `;

  it('loads the domain chunk of a response and validates it; unvalidated calls load none', () => {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({
      name: 'SchemaMismatchError',
      field: 'packageName',
      raw: { packageName: 42 },
    });
  });
});
