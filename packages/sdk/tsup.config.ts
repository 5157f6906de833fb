import { defineConfig } from 'tsup';
import { schemasSideEffectFree } from './build/schemasSideEffectFree';
import { stripSchemaDocs } from './build/stripSchemaDocs';

// tsup reads its configuration from a default export.
// eslint-disable-next-line no-restricted-syntax
export default defineConfig({
  // The core client, and the webhook helpers as their own entry (`@yieldrouter/sdk/webhooks`)
  // so that the core bundle does not carry them.
  entry: ['src/index.ts', 'src/webhooks.ts'],
  tsconfig: 'tsconfig.build.json',
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  // packages/schemas and packages/webhooks are internal: their source and types are bundled;
  // zod stays a dependency.
  noExternal: ['@yieldrouter/schemas', '@yieldrouter/webhooks'],
  external: ['zod'],
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
