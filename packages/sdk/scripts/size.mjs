// Bundle size of the published ESM entries: esbuild bundle, minified, gzipped.
// The core entry (dist/index.mjs) is what `import { createClient } from '@yieldrouter/sdk'`
// loads: the entry and the chunks it imports statically. It is printed with zod left external
// (what the SDK itself adds) and with zod bundled in, and is held to the budget. The response
// schemas of each manifest domain are chunks the client imports on first use (dynamic
// imports): reported apart, all of them together and the largest first use, with no budget.
// The webhooks entry (dist/webhooks.mjs, `@yieldrouter/sdk/webhooks`) is reported on its own.
// The verifier entry (dist/verify.mjs, `@yieldrouter/sdk/verify`) is held to its own budget with
// the chain SDKs it decodes with left external (viem, @solana/web3.js, @mysten/sui: optional
// peer dependencies its callers already have), and reported with them bundled too.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const core = join(root, 'dist/index.mjs');
const webhooks = join(root, 'dist/webhooks.mjs');
const verify = join(root, 'dist/verify.mjs');
const CHAIN_SDKS = ['viem', 'viem/*', '@solana/web3.js', '@mysten/sui', '@mysten/sui/*'];
const LIMIT_BYTES = 10 * 1024;

for (const entry of [core, webhooks, verify]) {
  if (!existsSync(entry)) {
    console.error(
      `${entry.slice(root.length + 1)} is missing: run \`pnpm --filter @yieldrouter/sdk build\` first`,
    );
    process.exit(1);
  }
}

/** Leaves dynamic imports out: they load on first use, not with the entry. */
const eagerOnly = {
  name: 'eager-only',
  setup(context) {
    context.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
    );
  },
};

async function measure(entry, external, plugins = [eagerOnly], platform = 'neutral') {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    mainFields: ['module', 'main'],
    external,
    plugins,
    write: false,
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  return { min: code.byteLength, gz: gzipSync(code, { level: 9 }).byteLength };
}

const kB = (bytes) => `${(bytes / 1024).toFixed(2)} kB`;
const withoutZod = await measure(core, ['zod']);
const withZod = await measure(core, []);
console.log(`@yieldrouter/sdk core (dist/index.mjs), esbuild --minify, gzip -9`);
console.log(`  without zod: ${kB(withoutZod.min)} min, ${kB(withoutZod.gz)} min+gz`);
console.log(`  with zod:    ${kB(withZod.min)} min, ${kB(withZod.gz)} min+gz`);
console.log(
  `  target: <= ${kB(LIMIT_BYTES)} min+gz without zod; ratio to target ${(withoutZod.gz / LIMIT_BYTES).toFixed(2)}`,
);

const chunks = join(root, 'dist/chunks');
const domains = readdirSync(chunks).filter((file) => file.startsWith('domain.'));
const everything = await measure(core, ['zod'], []);
let largest = { name: '', gz: 0 };
for (const domain of domains) {
  const { gz } = await measure(join(chunks, domain), ['zod']);
  if (gz > largest.gz) largest = { name: domain.replace(/-[A-Z0-9]+\.mjs$/, ''), gz };
}
console.log(`response schemas, loaded per domain on first use (${domains.length} domains):`);
console.log(`  all domains with the core: ${kB(everything.min)} min, ${kB(everything.gz)} min+gz`);
console.log(`  largest domain on its own: ${largest.name}, ${kB(largest.gz)} min+gz`);

const hooks = await measure(webhooks, ['zod']);
console.log(`@yieldrouter/sdk/webhooks (dist/webhooks.mjs), esbuild --minify, gzip -9`);
console.log(`  ${kB(hooks.min)} min, ${kB(hooks.gz)} min+gz (report only, no budget)`);

const verifier = await measure(verify, ['zod', ...CHAIN_SDKS]);
// As a browser app that has none of the chain SDKs yet would ship it (their browser builds).
const verifierWithSdks = await measure(verify, ['zod'], [eagerOnly], 'browser');
console.log(`@yieldrouter/sdk/verify (dist/verify.mjs), esbuild --minify, gzip -9`);
console.log(
  `  chain SDKs external (${CHAIN_SDKS.join(', ')}): ${kB(verifier.min)} min, ${kB(verifier.gz)} min+gz`,
);
console.log(
  `  chain SDKs bundled (report only): ${kB(verifierWithSdks.min)} min, ${kB(verifierWithSdks.gz)} min+gz`,
);
console.log(
  `  target: <= ${kB(LIMIT_BYTES)} min+gz with the chain SDKs external; ratio ${(verifier.gz / LIMIT_BYTES).toFixed(2)}`,
);
if (verifier.gz > LIMIT_BYTES) {
  console.error('verifier over the size budget');
  process.exitCode = 1;
}

if (withoutZod.gz > LIMIT_BYTES) {
  console.error('core over the size budget');
  process.exitCode = 1;
}
