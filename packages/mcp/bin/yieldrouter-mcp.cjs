#!/usr/bin/env node
// The stdio MCP server: SVC_API_URL and SVC_API_KEY come from the environment.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '../dist/cli.js');
if (!existsSync(cli)) {
  // Only in a checkout of the repository: the published package always carries dist/.
  process.stderr.write('yieldrouter-mcp: dist/ is missing; build it first: npx -y pnpm@10 build\n');
  process.exit(1);
}
require(cli);
