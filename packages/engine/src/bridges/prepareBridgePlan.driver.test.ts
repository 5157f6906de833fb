import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { findBridgeTransfer, findPlan } from '@yieldrouter/ledger';
import type { PrismaClient } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { createChainAdapters } from '../chains/createChainAdapters';
import { readSettings } from '../config/readSettings';
import { ServiceSettings, serviceConfig } from '../config/serviceSettings';
import { createCctpRail } from './createCctpRail';
import { prepareBridgePlan } from './prepareBridgePlan';

// The bridge plan's one write on the driver under the books (a prepared statement): what the
// API's use case does. The rail's reads are scripted at its boundary; the database is real.
const address = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const OWNER = address();

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

/** A Prisma client that fails the test if it is used at all. */
const untouchable = new Proxy({} as PrismaClient, {
  get: (_target, key) => {
    throw new Error(`Prisma was called (${String(key)})`);
  },
});

it('stores the plan, its legs and its transfer through `sql` alone when it is given', async () => {
  const config = serviceConfig(
    readSettings(
      ServiceSettings,
      {
        SVC_BASE_USDC_ADDRESS: address(),
        SVC_ARBITRUM_USDC_ADDRESS: address(),
        SVC_CCTP_ATTESTATION_URL: 'http://127.0.0.1:9',
        SVC_BASE_CCTP_TOKEN_MESSENGER: address(),
        SVC_BASE_CCTP_MESSAGE_TRANSMITTER: address(),
        SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: address(),
        SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: address(),
        SVC_BASE_BRIDGE_FEE_RECIPIENT: address(),
      },
      { inScope: () => false },
    ),
  );
  const cctp = createCctpRail({ bridges: config.bridges, chains: config.chains });
  const plan = await prepareBridgePlan({
    db: untouchable,
    sql: test.db.sql,
    adapters: createChainAdapters({
      chains: config.chains,
      ids: config.onChainIds,
      switches: config.switches,
    }),
    bridges: config.bridges,
    rail: {
      ...cctp,
      quote: async () => ({
        status: 'ok',
        railFeeMicros: 0n,
        minFinalityThreshold: 2000,
        finality: 'finalized',
        etaSeconds: 1200,
      }),
      readAllowance: async () => 0n,
    },
    request: {
      sourceChain: 'base',
      destChain: 'arbitrum',
      amountMicros: 25_000_000n,
      sourceAddress: OWNER,
      destinationAddress: OWNER,
    },
    now: new Date(),
  });
  expect(plan.status).toBe('prepared');
  const planId = plan.planId as string;
  const stored = await findPlan(test.db.prisma, planId);
  expect(stored?.legs.map((leg) => [leg.action, leg.effect])).toEqual([
    ['transfer', 'bridge_fee'],
    ['approve', 'none'],
    ['burn', 'bridge_burn'],
  ]);
  const transfer = await findBridgeTransfer(test.db.prisma, planId);
  expect(transfer?.burnMicros).toBe(25_000_000n - (transfer?.serviceFeeMicros ?? 0n));
  expect(transfer?.serviceFeeMicros).toBeGreaterThan(0n);
});
