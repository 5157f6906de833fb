// The SDK part of `pnpm bench`: builds @yieldrouter/sdk and measures its core bundle (esbuild
// --minify, gzip -9), with zod external and bundled, as a ratio of the 10 kB budget.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';

export function runSdkBench(): void {
  const sdkRoot = dirname(require.resolve('@yieldrouter/sdk/package.json'));
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: sdkRoot, stdio: 'inherit' });
  process.stdout.write('\n== SDK bundle size ==\n');
  run(join(sdkRoot, 'node_modules/.bin/tsup'), ['--silent']);
  run(process.execPath, [join(sdkRoot, 'scripts/size.mjs')]);
}
