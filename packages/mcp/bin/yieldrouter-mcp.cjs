#!/usr/bin/env node
// The stdio MCP server: SVC_API_URL and SVC_API_KEY come from the environment.
require('../dist/cli.js');
