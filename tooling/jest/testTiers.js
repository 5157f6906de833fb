// Test tiers by what a test file (and the testing helpers it imports) starts, not by its name:
//   e2e       starts a chain bed or a browser (anvil, litesvm, solc contracts, puppeteer): it
//             imports @yieldrouter/chain-beds or one of those packages; or starts the service
//             from its sources as the README's quick start does (spawns `server.ts` or
//             `main.ts`), so the quick start runs on the machine's Node in CI's e2e lane;
//   database  talks to PostgreSQL or Redis (the test databases, a Prisma/pg/ioredis/BullMQ
//             client, an app on them);
//   unit      neither: no I/O beyond the file system.
// `TEST_TIERS=unit,database npx jest` runs only those tiers (CI's Node 24 pass). A test's
// relative imports are followed (and workspace `…/testing` subpaths): a bed started by a helper
// makes the test e2e; database markers count only in test files and testing helpers, since
// product code imports pg and ioredis without connecting anywhere by itself.
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const TIERS = ['unit', 'database', 'e2e'];

const E2E_MODULE =
  /^(@yieldrouter\/chain-beds(\/.*)?|litesvm|@foundry-rs\/anvil|puppeteer-core|solc)$/;
const DATABASE_MODULE =
  /^(pg|ioredis|bullmq|@electric-sql\/pglite|pglite-prisma-adapter|@prisma\/adapter-pg|supertest)$/;
const DATABASE_CALL =
  /\b(createTestDatabase|createTestPgliteDatabase|createEmptyTestDatabase|createDatabase)\(/;
// Beds started without importing a bed package (the beds' own sources and tests).
const E2E_CALL = /\b(startAnvil|LiteSVM)\b/;
// A test that spawns the service's own entry point (the API's server.ts, the launcher's main.ts).
const SERVICE_SPAWN = /\bspawn\([^\n]*['"/](server|main)\.ts['"]/;

// Value imports and requires; `import type` starts nothing.
const IMPORT =
  /(?:^|\n)\s*(?:import(?!\s+type\b)[^'"]*?from\s*|import\s*\(\s*|require\s*\(\s*|export\s+(?!type\b)[^'"]*?from\s*)['"]([^'"]+)['"]/g;

const isWorkspaceFile = (file) => !file.includes(`${path.sep}node_modules${path.sep}`);
// Where database markers count: test files and testing helpers (product code imports pg and
// ioredis without connecting anywhere by itself).
const isTestCode = (file) => /\.test\.ts$|[\\/]testing([\\/]|\.ts$)/.test(file);

function resolveImport(specifier, fromFile) {
  if (specifier.startsWith('.')) {
    const base = path.resolve(path.dirname(fromFile), specifier);
    for (const candidate of [base, `${base}.ts`, `${base}.js`, path.join(base, 'index.ts')]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return undefined;
  }
  if (!specifier.startsWith('@yieldrouter/') || !/\/(src\/.*\/)?testing(\/|$)/.test(specifier)) {
    return undefined;
  }
  try {
    return require.resolve(specifier, { paths: [path.dirname(fromFile)] });
  } catch {
    return undefined;
  }
}

/** The tier of one test file. */
function tierOf(file) {
  const seen = new Set();
  let tier = 0;
  const visit = (current) => {
    if (seen.has(current) || tier === 2) return;
    seen.add(current);
    const source = readFileSync(current, 'utf8');
    const testCode = isTestCode(current);
    if (E2E_CALL.test(source) || (testCode && SERVICE_SPAWN.test(source))) tier = 2;
    if (testCode && DATABASE_CALL.test(source)) tier = Math.max(tier, 1);
    for (const [, specifier] of source.matchAll(IMPORT)) {
      if (E2E_MODULE.test(specifier)) tier = 2;
      else if (testCode && DATABASE_MODULE.test(specifier)) tier = Math.max(tier, 1);
      const target = resolveImport(specifier, current);
      if (target && isWorkspaceFile(target)) visit(target);
    }
  };
  visit(file);
  return TIERS[tier];
}

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every test file under `<rootDir>/src` with its tier. */
function classifyTests(rootDir) {
  return testFiles(path.join(rootDir, 'src')).map((file) => ({ file, tier: tierOf(file) }));
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `testPathIgnorePatterns` entries that leave only the tiers named in `TEST_TIERS` (all when
 * unset). An unknown tier name is an error, so a typo never silently runs nothing.
 */
function ignoredByTier(rootDir, selection = process.env['TEST_TIERS']) {
  if (!selection) return [];
  const wanted = selection.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !TIERS.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `TEST_TIERS: unknown tier(s) ${unknown.join(', ')} (tiers: ${TIERS.join(', ')})`,
    );
  }
  return classifyTests(rootDir)
    .filter(({ tier }) => !wanted.includes(tier))
    .map(({ file }) => `^${escape(file)}$`);
}

module.exports = { TIERS, classifyTests, ignoredByTier, tierOf };
