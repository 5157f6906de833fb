// Run by `node --test` (this package's `test`): the tier of a test file follows from what it and
// its helpers import (and whether it starts the service itself), whatever the file is called.
const assert = require('node:assert/strict');
const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const { classifyTests, ignoredByTier } = require('./testTiers');

function fixture(files) {
  const root = mkdtempSync(path.join(tmpdir(), 'test-tiers-'));
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), source);
  }
  return root;
}

const tiers = (root) =>
  Object.fromEntries(
    classifyTests(root).map(({ file, tier }) => [path.relative(root, file), tier]),
  );

test('a file is e2e, database or unit by what it and its helpers start', () => {
  const root = fixture({
    'src/pure.test.ts': "import { add } from './add';\n",
    'src/add.ts': "import { Pool } from 'pg';\nexport const add = 1;\n",
    'src/books.test.ts':
      "import { createTestDatabase } from 'x';\nconst db = createTestDatabase();\n",
    'src/redis.test.ts': "import Redis from 'ioredis';\n",
    'src/typeOnly.test.ts': "import type { AnvilInstance } from '@yieldrouter/chain-beds/evm';\n",
    'src/onAnvil.test.ts': "import { startBed } from './testing/bed';\n",
    'src/testing/bed.ts': "import { startAnvil } from '@yieldrouter/chain-beds/evm';\n",
    'src/venueBed.test.ts': "import { bed } from './venueBed';\n",
    'src/venueBed.ts': "import { deploy } from '@yieldrouter/chain-beds';\n",
    'src/quickStart.test.ts':
      "import { spawn } from 'node:child_process';\nspawn(tsx, [path.join(__dirname, 'server.ts')]);\n",
    'src/launcher.test.ts':
      "import { spawn } from 'node:child_process';\nspawn(process.execPath, ['--import', 'tsx', 'src/main.ts']);\n",
    'src/otherChild.test.ts':
      "import { spawn } from 'node:child_process';\nspawn('sh', ['-c', 'echo server.ts']);\n",
  });
  try {
    assert.deepEqual(tiers(root), {
      'src/books.test.ts': 'database',
      'src/launcher.test.ts': 'e2e',
      'src/onAnvil.test.ts': 'e2e',
      'src/otherChild.test.ts': 'unit',
      'src/pure.test.ts': 'unit',
      'src/quickStart.test.ts': 'e2e',
      'src/redis.test.ts': 'database',
      'src/typeOnly.test.ts': 'unit',
      'src/venueBed.test.ts': 'e2e',
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('TEST_TIERS leaves out the other tiers and refuses an unknown name', () => {
  const root = fixture({
    'src/pure.test.ts': '',
    'src/onAnvil.test.ts': "import { startAnvil } from '@yieldrouter/chain-beds/evm';\n",
  });
  try {
    assert.deepEqual(ignoredByTier(root, ''), []);
    const ignored = ignoredByTier(root, 'unit,database');
    assert.equal(ignored.length, 1);
    assert.match(path.join(root, 'src/onAnvil.test.ts'), new RegExp(ignored[0]));
    assert.throws(() => ignoredByTier(root, 'unit,e2e2'), /unknown tier\(s\) e2e2/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
