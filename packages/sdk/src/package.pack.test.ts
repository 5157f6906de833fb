import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Checks the built package (turbo runs `build` before this package's tests).
const root = join(__dirname, '..');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
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
  if (!existsSync(join(root, 'dist/index.mjs'))) {
    throw new Error('dist/ is missing: run `pnpm --filter @yieldrouter/sdk build` first');
  }
  packDir = mkdtempSync(join(tmpdir(), 'sdk-pack-'));
  [packed] = JSON.parse(
    await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir]),
  ) as [typeof packed];
  const tarball = join(packDir, packed.filename);
  publint = run(bin('publint'), ['run', tarball, '--strict']);
  attw = run(bin('attw'), [tarball, '--format', 'table-flipped']);
  // Awaited by their tests; a rejection is theirs to report, not an unhandled one.
  publint.catch(() => undefined);
  attw.catch(() => undefined);
}, 60_000);
afterAll(async () => {
  await Promise.allSettled([publint, attw]);
  if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe('the published package', () => {
  it('npm pack ships only dist, README, LICENSE, CHANGELOG and package.json', () => {
    const files = packed.files.map((file) => file.path).sort();
    const allowed =
      /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/(index|webhooks|verify)\.(mjs|js|d\.mts|d\.ts)|dist\/chunks\/[\w.-]+\.mjs)$/;
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
        'dist/verify.mjs',
        'dist/verify.js',
        'dist/verify.d.mts',
        'dist/verify.d.ts',
      ]),
    );
    // The ESM build's response schemas: one chunk per manifest domain, loaded on first use.
    expect(files.filter((file) => /^dist\/chunks\/domain\./.test(file))).toHaveLength(14);
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

  it('the verify entry imports only the chain SDKs (optional peers), no Node built-in', () => {
    const code = readFileSync(join(root, 'dist/verify.mjs'), 'utf8');
    expect(code).not.toMatch(/["']node:|require\(/);
    expect(code).not.toContain('@yieldrouter/verify');
    const imported = [...code.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(new Set(imported)).toEqual(
      new Set(['viem', '@solana/web3.js', '@mysten/sui/transactions', '@mysten/sui/utils']),
    );
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      peerDependenciesMeta: Record<string, { optional: boolean }>;
    };
    for (const peer of ['viem', '@solana/web3.js', '@mysten/sui']) {
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
    }
    // The core entry does not carry the verifier.
    expect(readFileSync(join(root, 'dist/index.mjs'), 'utf8')).not.toContain('53564331');
  });

  it('the types are self-contained: no import of the internal schemas package', () => {
    const types = readFileSync(join(root, 'dist/index.d.ts'), 'utf8');
    expect(types).not.toContain('@yieldrouter/schemas');
    expect(types.match(/^import .* from '([^']+)';$/gm)).toEqual(["import { z } from 'zod';"]);
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
