import type { Plugin } from 'esbuild';

const RESOLVING = Symbol('resolving');

/**
 * packages/schemas is internal TypeScript source that the SDK bundles. Its modules only declare
 * zod schemas, so the ones the SDK never reaches (OpenAPI builder, chain adapter contract) may
 * be dropped — which esbuild does only for modules marked free of side effects.
 */
export const schemasSideEffectFree: Plugin = {
  name: 'schemas-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === RESOLVING) return undefined;
      const fromSchemas = args.importer.includes('/packages/schemas/src/');
      if (
        !args.path.startsWith('@yieldrouter/schemas') &&
        !(fromSchemas && args.path.startsWith('.'))
      ) {
        return undefined;
      }
      const result = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: RESOLVING,
      });
      return { ...result, sideEffects: false };
    });
  },
};
