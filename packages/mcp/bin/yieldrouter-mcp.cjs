#!/usr/bin/env node
// The stdio MCP server: SVC_API_URL and SVC_API_KEY come from the environment.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '../dist/cli.js');
if (!existsSync(cli)) {
  // Only in a checkout of the repository, where the root postinstall builds it: the published
  // package always carries dist/.
  process.stderr.write(
    'yieldrouter-mcp: dist/ is missing; `npx -y pnpm@10 install` (or `npx -y pnpm@10 build`) builds it\n',
  );
  process.exit(1);
}
require(cli);
