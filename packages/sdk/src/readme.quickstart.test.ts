import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ListeningTestApp } from './testing/listenTestApp';
import { listenTestApp } from './testing/listenTestApp';

// The README's quick start, run as written (built package, plain node) against the real API.
const root = join(__dirname, '..');

function quickStart(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README.md has no ts block under "## Quick start"');
  return code;
}

let api: ListeningTestApp;
beforeAll(async () => {
  api = await listenTestApp();
});
afterAll(() => api.close());

it('the README quick start runs against the API and prints what it says', async () => {
  const script = join(root, `.quickstart-${process.pid}.mjs`);
  writeFileSync(script, quickStart().replace('http://localhost:3000', api.baseUrl));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: root });
    expect(stdout.split('\n')).toEqual([
      'phase-1 disabled',
      'SOL N/A rpc_not_configured',
      'USDC N/A rpc_not_configured',
      '',
    ]);
  } finally {
    rmSync(script, { force: true });
  }
});
