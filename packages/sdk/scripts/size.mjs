// Bundle size of the published ESM entry (dist/index.mjs): esbuild bundle, minified, gzipped.
// Printed with zod left external (what the SDK itself adds) and with zod bundled in.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'dist/index.mjs');
const LIMIT_BYTES = 10 * 1024;

if (!existsSync(entry)) {
  console.error('dist/index.mjs is missing: run `pnpm --filter @yieldrouter/sdk build` first');
  process.exit(1);
}

async function measure(external) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external,
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  return { min: code.byteLength, gz: gzipSync(code, { level: 9 }).byteLength };
}

const kB = (bytes) => `${(bytes / 1024).toFixed(2)} kB`;
const withoutZod = await measure(['zod']);
const withZod = await measure([]);
console.log(`@yieldrouter/sdk core (dist/index.mjs), esbuild --minify, gzip -9`);
console.log(`  without zod: ${kB(withoutZod.min)} min, ${kB(withoutZod.gz)} min+gz`);
console.log(`  with zod:    ${kB(withZod.min)} min, ${kB(withZod.gz)} min+gz`);
console.log(
  `  target: <= ${kB(LIMIT_BYTES)} min+gz without zod; ratio to target ${(withoutZod.gz / LIMIT_BYTES).toFixed(2)}`,
);
if (withoutZod.gz > LIMIT_BYTES) {
  console.error('over the size budget');
  process.exitCode = 1;
}
