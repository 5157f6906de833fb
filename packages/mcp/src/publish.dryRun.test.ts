import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Both published packages as a release would publish them: `pnpm pack` (which writes the
// workspace ranges as versions, as `pnpm publish` does), then `npm publish --dry-run` on the
// tarball, and the metadata provenance needs (repository with its directory, license, files,
// exports, publishConfig.provenance). Checks the built packages (turbo builds before tests).

jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..', '..');
const run = (command: string, args: string[], cwd: string) =>
  promisify(execFile)(command, args, { cwd, encoding: 'utf8', maxBuffer: 16 << 20 }).then(
    ({ stdout }) => stdout,
  );

interface PackedManifest {
  readonly name: string;
  readonly license: string;
  readonly repository: { readonly type: string; readonly url: string; readonly directory: string };
  readonly files: readonly string[];
  readonly exports: Readonly<Record<string, unknown>>;
  readonly publishConfig: { readonly access: string; readonly provenance: boolean };
  readonly dependencies?: Readonly<Record<string, string>>;
}

let packDir: string;
beforeAll(() => {
  packDir = mkdtempSync(join(tmpdir(), 'publish-dry-run-'));
});
afterAll(() => rmSync(packDir, { recursive: true, force: true }));

describe.each(['sdk', 'mcp'])('@yieldrouter/%s', (name) => {
  it('passes npm publish --dry-run with provenance-ready metadata', async () => {
    const dir = join(packDir, name);
    const packageDir = join(ROOT, 'packages', name);
    await run(
      'npx',
      ['--prefer-offline', '-y', 'pnpm@10', 'pack', '--pack-destination', dir],
      packageDir,
    );
    const [tarball] = readdirSync(dir).filter((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`pnpm pack wrote no tarball for ${name}`);
    const manifest = JSON.parse(
      await run('tar', ['-xzOf', tarball, 'package/package.json'], dir),
    ) as PackedManifest;
    expect(manifest).toMatchObject({
      name: `@yieldrouter/${name}`,
      license: 'MIT',
      repository: { type: 'git', directory: `packages/${name}` },
      publishConfig: { access: 'public', provenance: true },
    });
    expect(manifest.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    expect(manifest.exports['.']).toBeDefined();
    expect(manifest.files).toContain('dist');
    // A consumer cannot resolve workspace: ranges; pack writes the version instead.
    expect(JSON.stringify(manifest.dependencies ?? {})).not.toContain('workspace:');
    // npm 11 keys the answer by package name; npm 10 answers the document itself.
    const answer = JSON.parse(
      // --offline: a dry run needs no registry, and none is reachable here (npm 11 on Node 24
      // otherwise spent minutes on retries in CI).
      await run(
        'npm',
        ['publish', tarball, '--dry-run', '--json', '--ignore-scripts', '--offline'],
        dir,
      ),
    ) as Record<string, unknown>;
    const published = ('id' in answer ? answer : answer[`@yieldrouter/${name}`]) as {
      id: string;
      files: { path: string }[];
    };
    expect(published.id).toMatch(new RegExp(`^@yieldrouter/${name}@\\d+\\.\\d+\\.\\d+`));
    expect(published.files.map((file) => file.path)).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'LICENSE']),
    );
  });
});
