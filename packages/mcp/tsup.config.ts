import { defineConfig } from 'tsup';

// tsup reads its configuration from a default export.
// eslint-disable-next-line no-restricted-syntax
export default defineConfig({
  // The library (createMcpServer for hosts such as the API's /mcp) and the stdio command.
  entry: ['src/index.ts', 'src/cli.ts'],
  tsconfig: 'tsconfig.build.json',
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'node',
  // packages/mcp-server and packages/schemas are internal: bundled (the server and the manifest
  // its tools come from), and with them packages/verify (the `verifyPlan` tool), whose chain
  // SDKs (viem, @solana/web3.js, @mysten/sui) are this package's dependencies; the published
  // SDK, the MCP SDK and zod stay dependencies.
  noExternal: ['@yieldrouter/mcp-server', '@yieldrouter/schemas'],
  external: ['zod', '@yieldrouter/sdk', /^@modelcontextprotocol\/sdk/],
  dts: { resolve: ['@yieldrouter/mcp-server', '@yieldrouter/schemas'], entry: ['src/index.ts'] },
  clean: true,
  treeshake: true,
});
