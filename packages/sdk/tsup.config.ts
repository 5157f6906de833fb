import { defineConfig } from 'tsup';
import { schemasSideEffectFree } from './build/schemasSideEffectFree';
import { stripSchemaDocs } from './build/stripSchemaDocs';

// tsup reads its configuration from a default export.
// eslint-disable-next-line no-restricted-syntax
export default defineConfig({
  // The core client, and the webhook helpers and the offline plan verifier as their own entries
  // (`@yieldrouter/sdk/webhooks`, `@yieldrouter/sdk/verify`) so that the core bundle does not
  // carry them.
  entry: ['src/index.ts', 'src/webhooks.ts', 'src/verify.ts'],
  tsconfig: 'tsconfig.build.json',
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  // packages/schemas, webhooks and verify are internal: their source and types are bundled;
  // zod stays a dependency, and the chain SDKs the verifier decodes with are the caller's
  // (optional peer dependencies).
  noExternal: ['@yieldrouter/schemas', '@yieldrouter/webhooks', '@yieldrouter/verify'],
  external: ['zod', 'viem', /^@solana\/web3\.js/, /^@mysten\/sui/],
  dts: { resolve: true },
  clean: true,
  treeshake: true,
  esbuildPlugins: [schemasSideEffectFree, stripSchemaDocs],
  // ESM: each manifest domain's response schemas are a chunk the client imports the first time
  // it validates one of that domain's responses (src/routes/responseSchemas.ts); the CommonJS
  // build keeps them in one file, initialised on the same first use.
  splitting: true,
  esbuildOptions(options, context) {
    if (context.format === 'esm') options.chunkNames = 'chunks/[name]-[hash]';
    if (context.format === 'cjs') options.splitting = false;
  },
});
