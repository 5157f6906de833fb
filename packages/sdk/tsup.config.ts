import { defineConfig } from 'tsup';
import { schemasSideEffectFree } from './build/schemasSideEffectFree';
import { stripSchemaDocs } from './build/stripSchemaDocs';

// tsup reads its configuration from a default export.
// eslint-disable-next-line no-restricted-syntax
export default defineConfig({
  entry: ['src/index.ts'],
  tsconfig: 'tsconfig.build.json',
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  // packages/schemas is internal: its source and its types are bundled; zod stays a dependency.
  noExternal: ['@yieldrouter/schemas'],
  external: ['zod'],
  dts: { resolve: true },
  clean: true,
  treeshake: true,
  esbuildPlugins: [schemasSideEffectFree, stripSchemaDocs],
});
