// The fuzzer over the served OpenAPI document (issue 16, "Fuzzer in CI"): every operation, with
// no key, an unknown key and each role's key, on real PostgreSQL and Redis. Never a 5xx or a
// hang; 4xx bodies are ErrorBody; successes are documented; nothing key-shaped is logged or
// stored. FUZZ_SEED fixes the seed (CI: a fixed default); FUZZ_RUNS sets requests per route.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { Opportunity } from '@yieldrouter/schemas';
import { canonicalPath, routeList } from '@yieldrouter/schemas';
import { answerClientErrors } from './http/clientErrors';
import { createLogger } from './logger';
import type { TestApp } from './testing/startTestApp';
import {
  SAMPLE_ADDRESSES,
  SAMPLE_PARAMS,
  TEST_WALLET,
  startTestApp,
  testKeys,
} from './testing/startTestApp';
import { captureLogs } from './testing/fuzz/captureLogs';
import type { FuzzTarget } from './testing/fuzz/fuzzOperation';
import { fuzzOperation, operationSeed } from './testing/fuzz/fuzzOperation';
import { createKeyMaterialSearch } from './testing/fuzz/keyMaterial';
import type { OpenApiDocument, Operation } from './testing/fuzz/operations';
import { operationsOf } from './testing/fuzz/operations';
import { FindingLog, describeFindings, toCurl } from './testing/fuzz/report';
import { sendRequest } from './testing/fuzz/sendRequest';
import type { JsonSchema } from './testing/fuzz/validValue';

const CI_SEED = 20_161_116;
const seed = process.env['FUZZ_SEED']
  ? Number(process.env['FUZZ_SEED'])
  : process.env['CI'] === 'true'
    ? CI_SEED
    : randomInt(2 ** 31);
const numRuns = Number(process.env['FUZZ_RUNS'] ?? 300);
const rerun = (operation?: Operation) =>
  `Seed ${seed}: FUZZ_SEED=${seed} pnpm --filter @yieldrouter/api test -- openapi.fuzz` +
  (operation ? ` -t ${JSON.stringify(`${operation.method} ${operation.path}`)}` : '');

let t: TestApp;
let server: http.Server;
let target: FuzzTarget;
const findings = new FindingLog();
const keys = { owner: testKeys.owner, agent: testKeys.agent, keeper: testKeys.keeper };
const findKeyMaterial = createKeyMaterialSearch(Object.values(keys));
const consoleLines: string[] = [];

async function get(path: string): Promise<unknown> {
  const outcome = await sendRequest(
    target.origin,
    { method: 'GET', target: path, headers: {}, identity: 'none', shapes: [] },
    10_000,
  );
  if (outcome.kind !== 'response' || outcome.response.status !== 200) {
    throw new Error(`GET ${path}: ${JSON.stringify(outcome).slice(0, 300)}`);
  }
  return JSON.parse(outcome.response.body);
}

/** Plans (prepared or blocked, both stored) for the plan routes to find: one per opportunity. */
async function preparePlans(opportunities: readonly Opportunity[]): Promise<string[]> {
  const planIds: string[] = [];
  const morpho = { opportunityId: 'morpho', chain: 'base' } as const;
  for (const { opportunityId, chain } of [morpho, ...opportunities]) {
    const owner = SAMPLE_ADDRESSES[chain];
    const body = JSON.stringify({ opportunityId, amountMicros: '25000000', owner });
    const outcome = await sendRequest(
      target.origin,
      {
        method: 'POST',
        target: '/api/v1/svc/strategies/deposit/plan',
        headers: { 'Content-Type': 'application/json' },
        body: Buffer.from(body),
        identity: 'none',
        shapes: [],
      },
      10_000,
    );
    if (outcome.kind !== 'response') continue;
    const planId = (JSON.parse(outcome.response.body) as { planId?: unknown }).planId;
    if (typeof planId === 'string') planIds.push(planId);
  }
  return planIds;
}

let operations: Operation[] = [];
beforeAll(async () => {
  const logger = createLogger('silent');
  const logs = captureLogs(logger);
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleLines.push(args.map(String).join(' '));
    });
  }
  t = await startTestApp(
    {
      SVC_RATE_LIMIT_KEYED: '10000000',
      SVC_RATE_LIMIT_PUBLIC: '10000000',
      // A venue with its on-chain ids, so deposit plans are prepared with legs to settle.
      SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: SAMPLE_ADDRESSES.base } }),
    },
    { logger },
  );
  server = http.createServer(t.app);
  // As server.ts does: an oversized request is answered so the client reads it (Node 24).
  answerClientErrors(server);
  // Generating an operation's cases can take seconds; the client's idle keep-alive socket must
  // outlive that pause, or its next request races the server's close (ECONNRESET, reported as
  // "connection dropped" though the app never saw the request).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = {
    port: (server.address() as AddressInfo).port,
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
  };
  target = {
    origin,
    keys,
    hints: {},
    logs,
    timeoutMs: 5000,
    findings,
    findKeyMaterial,
    errorBody: {},
    ...(process.env['FUZZ_TRACE']
      ? {
          trace: (line: string) => appendFileSync(process.env['FUZZ_TRACE'] as string, `${line}\n`),
        }
      : {}),
  };
  const document = (await get('/api/v1/openapi.json')) as OpenApiDocument;
  operations = operationsOf(document);
  target = { ...target, operations };
  const listed = (await get('/api/v1/svc/opportunities')) as { opportunities: Opportunity[] };
  const opportunities = listed.opportunities.slice(0, 6);
  const opportunityIds = opportunities.map((opportunity) => opportunity.opportunityId);
  const addresses = [TEST_WALLET, ...Object.values(SAMPLE_ADDRESSES)];
  const planIds = await preparePlans(opportunities);
  target = {
    ...target,
    errorBody: document.components?.schemas?.['ErrorBody'] ?? ({} as JsonSchema),
    hints: {
      address: [TEST_WALLET],
      wallet: [TEST_WALLET],
      wallets: addresses,
      owner: addresses,
      sourceAddress: addresses,
      destAddress: addresses,
      character_id: [SAMPLE_PARAMS['character_id'] ?? 'character-1'],
      legIndex: [0],
      planId: [...planIds, SAMPLE_PARAMS['planId'] ?? 'plan_sample'],
      opportunityId: opportunityIds,
      fromOpportunityId: opportunityIds,
      toOpportunityId: opportunityIds,
      strategyId: opportunityIds,
      token: ['USDC'],
      amountMicros: ['1000000'],
    },
  };
  target.logs.take();
}, 60_000);

afterAll(async () => {
  if (process.env['FUZZ_REPORT']) {
    const list = findings.list().map(({ request, shapes, ...finding }) => ({
      ...finding,
      shapes: [...shapes],
      curl: toCurl(request),
    }));
    appendFileSync(process.env['FUZZ_REPORT'], `${JSON.stringify({ seed, findings: list })}\n`);
  }
  jest.restoreAllMocks();
  target?.origin.agent.destroy();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

/** Test names come from the manifest (tests are declared before the document is served). */
const labels = routeList.map((route) => `${route.method.toUpperCase()} ${canonicalPath(route)}`);
const labelOf = (operation: Operation) => `${operation.method} ${operation.path}`;

describe('fuzz: every operation of the served OpenAPI document', () => {
  it('serves every operation of the manifest', () => {
    expect(operations.map(labelOf).sort()).toEqual([...labels].sort());
  });

  it.each(labels)(
    '%s',
    async (label) => {
      const operation = operations.find((candidate) => labelOf(candidate) === label);
      if (!operation) throw new Error(`${label} is not in the served document`);
      await fuzzOperation(target, operation, { seed: operationSeed(seed, operation), numRuns });
      const found = findings.list(label);
      if (found.length > 0) throw new Error(describeFindings(found, rerun(operation)));
    },
    120_000,
  );

  it('nothing key-shaped was stored in the database', async () => {
    const tables = await t.db.$queryRaw<Array<{ name: string }>>`
      SELECT table_name::text AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
    const stored: string[] = [];
    for (const { name } of tables) {
      const rows = await t.db.$queryRawUnsafe<Array<{ row: string }>>(
        `SELECT row_to_json(t)::text AS row FROM "${name.replace(/"/g, '""')}" t`,
      );
      for (const { row } of rows) {
        for (const sample of findKeyMaterial(row))
          stored.push(`${name}: ${sample}: ${row.slice(0, 200)}`);
      }
    }
    expect(stored).toEqual([]);
  });

  it('nothing key-shaped reached the console', () => {
    expect(
      consoleLines.flatMap((line) =>
        findKeyMaterial(line).map((s) => `${s}: ${line.slice(0, 200)}`),
      ),
    ).toEqual([]);
  });
});
