import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { getAddress } from 'viem';
import { findBridgeTransfer, findPlan, readBalancesOf, verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { Books } from '@yieldrouter/ledger';
import type { Receipt } from '@yieldrouter/schemas';
import { createChainAdapters } from '../chains/createChainAdapters';
import type { ChainAdapters } from '../chains/chainsConfig';
import { readSettings } from '../config/readSettings';
import { ServiceSettings, serviceConfig } from '../config/serviceSettings';
import { EngineError } from '../errors';
import { settleLeg } from '../wallet/settleLeg';
import type { BridgeRail, BridgeMintReading } from './bridgeRail';
import { confirmBridgeDelivery } from './confirmBridgeDelivery';
import { createCctpRail } from './createCctpRail';
import { prepareBridgePlan } from './prepareBridgePlan';

// Conservation of a bridge's money over random outcomes: the fee transfer paid or reverted, the
// burn settled or reverted (rail fee 0 or a fast fee), the delivery confirmed (anywhere in the
// rail's allowance), never reported, or forged (more than burned, less than the allowance, to
// another recipient), reported once or twice and by another transaction. The legs' receipts are
// scripted at the rail's and the adapter's read boundary; everything behind it runs as in
// production on PostgreSQL. After each run: liquid + in_flight + fees + what the rail kept equals
// what the receipts proved came in, nothing is negative, the ledger's invariants hold.

type Delivery = 'delivered' | 'never' | 'too_much' | 'too_little' | 'other_recipient';
const M = 1_000_000n;
const hash = () => `0x${randomBytes(32).toString('hex')}`;
const address = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const FEE_RECIPIENT = address();

let test: TestDatabase;
let adapters: ChainAdapters;
let rail: BridgeRail;
let script: { fee: Receipt; burn: Receipt | null; mint: BridgeMintReading; railFee: bigint };
let config: ReturnType<typeof serviceConfig>;

beforeAll(async () => {
  test = await createTestDatabase();
  config = serviceConfig(
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
        SVC_BASE_BRIDGE_FEE_RECIPIENT: FEE_RECIPIENT,
      },
      { inScope: () => false },
    ),
  );
  const real = createChainAdapters({
    chains: config.chains,
    ids: config.onChainIds,
    switches: config.switches,
  });
  adapters = { ...real, base: { ...real.base, readTransferReceipt: async () => script.fee } };
  const cctp = createCctpRail({ bridges: config.bridges, chains: config.chains });
  rail = {
    ...cctp,
    quote: async () => ({
      status: 'ok',
      railFeeMicros: script.railFee,
      minFinalityThreshold: script.railFee > 0n ? 1000 : 2000,
      finality: script.railFee > 0n ? 'fast' : 'finalized',
      etaSeconds: 30,
    }),
    readAllowance: async () => 0n,
    readBurn: async ({ txId }) => {
      const burn = script.burn;
      if (!burn || burn.status !== 'confirmed') return burn ?? { status: 'pending', txId };
      return {
        status: 'confirmed',
        txId,
        amountMicros: burn.amountMicros,
        destinationDomain: 3,
        mintRecipient: (burn as { planId: string }).planId,
      };
    },
    readAttestation: async () => ({
      status: 'complete',
      message: '0x00',
      attestation: '0x00',
      nonce: hash(),
    }),
    readMint: async () => script.mint,
  };
});
afterAll(() => test?.drop());

const outcome = fc.record({
  amount: fc.bigInt({ min: 2n * M, max: 5_000n * M }),
  fast: fc.boolean(),
  feePaid: fc.boolean(),
  burnOk: fc.boolean(),
  delivery: fc.constantFrom<Delivery>(
    'delivered',
    'never',
    'too_much',
    'too_little',
    'other_recipient',
  ),
  /** Where in the rail's allowance the delivered amount lands (per mille). */
  kept: fc.integer({ min: 0, max: 1000 }),
  twice: fc.boolean(),
});

const rejected = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return error.code;
  }
};

describe('bridge conservation (property, PostgreSQL)', () => {
  it('liquid + in_flight + fees + the rail fee equal what the receipts proved came in', async () => {
    await fc.assert(
      fc.asyncProperty(outcome, async (run) => {
        const db = test.db;
        const owner = address();
        script = {
          railFee: run.fast ? run.amount / 10_000n + 1n : 0n,
          fee: { status: 'pending', txId: '' },
          burn: null,
          mint: { status: 'pending', txId: '' },
        };
        const plan = await prepareBridgePlan({
          db,
          adapters,
          bridges: config.bridges,
          rail,
          request: {
            sourceChain: 'base',
            destChain: 'arbitrum',
            amountMicros: run.amount,
            sourceAddress: owner,
            destinationAddress: owner,
          },
          now: new Date(),
        });
        const planId = plan.planId as string;
        expect(plan.status).toBe('prepared');
        const legs = plan.legs ?? [];
        const feeLeg = legs.find((leg) => leg.action === 'transfer');
        const burnLeg = legs.find((leg) => leg.action === 'burn');
        if (!feeLeg || !burnLeg) throw new Error('legs missing');
        const feeMicros = BigInt(feeLeg.amountMicros);
        const burnMicros = BigInt(burnLeg.amountMicros);
        const common = {
          db,
          adapters,
          venues: config.venues,
          bridgeRail: rail,
          planId,
          now: new Date(),
        };

        const feeTx = hash();
        script.fee = run.feePaid
          ? {
              status: 'confirmed',
              txId: feeTx,
              planId,
              amountMicros: feeMicros,
              shares: null,
              block: null,
            }
          : { status: 'failed', txId: feeTx, reason: 'reverted' };
        await settleLeg({ ...common, legIndex: feeLeg.index, txId: feeTx });
        const burnTx = hash();
        script.burn = run.burnOk
          ? // readBurn above takes the recipient from `planId`: the owner here.
            {
              status: 'confirmed',
              txId: burnTx,
              planId: owner,
              amountMicros: burnMicros,
              shares: null,
              block: null,
            }
          : { status: 'failed', txId: burnTx, reason: 'reverted' };
        await settleLeg({ ...common, legIndex: burnLeg.index, txId: burnTx });

        const burned = run.burnOk ? burnMicros : 0n;
        const least = burnMicros - script.railFee;
        let delivered = 0n;
        if (run.delivery !== 'never') {
          const mintTx = hash();
          const good = least + ((burnMicros - least) * BigInt(run.kept)) / 1000n;
          script.mint =
            run.delivery === 'other_recipient'
              ? { status: 'mismatch', txId: mintTx, reason: 'minted to someone else' }
              : {
                  status: 'confirmed',
                  txId: mintTx,
                  amountMicros:
                    run.delivery === 'too_much'
                      ? burnMicros + 1n
                      : run.delivery === 'too_little'
                        ? least - 1n
                        : good,
                  feeMicros: 0n,
                };
          const report = () => confirmBridgeDelivery({ ...common, rail, destTxId: mintTx });
          const code = await rejected(report());
          if (!run.burnOk) {
            expect(code).toBe('BRIDGE_NOT_DELIVERABLE');
          } else if (run.delivery === 'delivered') {
            expect(code).toBeUndefined();
            delivered = good;
          } else {
            expect(code).toBe('RECEIPT_MISMATCH');
          }
          if (run.twice) {
            // The same report again is a replay; another transaction for a delivered plan is refused.
            expect(await rejected(report())).toBe(code);
            if (delivered > 0n) {
              const other = confirmBridgeDelivery({ ...common, rail, destTxId: hash() });
              expect(await rejected(other)).toBe('BRIDGE_NOT_DELIVERABLE');
            }
          }
        }

        const rows = await readBalancesOf(db, [owner]);
        const of = (chain: string, bucket: string) =>
          rows.find((row) => row.chain === chain && row.bucket === bucket)?.balanceMicros ?? 0n;
        for (const row of rows) expect(row.balanceMicros).toBeGreaterThanOrEqual(0n);
        const liquid = of('arbitrum', 'liquid') + of('base', 'liquid');
        const inFlight = of('base', 'in_flight') + of('arbitrum', 'in_flight');
        const fees = await db.posting.aggregate({
          _sum: { amountMicros: true },
          where: { entry: { planId }, account: { bucket: 'fees:protocol' } },
        });
        const feesIn = fees._sum.amountMicros ?? 0n;
        const railKept = delivered > 0n ? burned - delivered : 0n;
        const cameIn = (run.feePaid ? feeMicros : 0n) + burned;
        expect(liquid + inFlight + feesIn + railKept).toBe(cameIn);
        expect(liquid).toBe(delivered);
        expect(inFlight).toBe(delivered > 0n ? 0n : burned);
        expect(feesIn).toBe(run.feePaid ? feeMicros : 0n);
      }),
      { numRuns: 30 },
    );
    expect((await verifyLedger(test.db)).ok).toBe(true);
  });
});

describe('bridge plan on the driver', () => {
  /** Books whose grouped plan writes work and whose every other part fails the test if used. */
  const onlyPlanWrites = () =>
    new Proxy({} as Books, {
      get: (_target, key) => {
        if (key === 'plans') return test.db.plans;
        throw new Error(`Prisma was called (${String(key)})`);
      },
    });

  it("stores the plan, its legs and its transfer through the books' plan writes (the API use case)", async () => {
    const owner = address();
    script = {
      railFee: 0n,
      fee: { status: 'pending', txId: '' },
      burn: null,
      mint: { status: 'pending', txId: '' },
    };
    const plan = await prepareBridgePlan({
      db: onlyPlanWrites(),
      adapters,
      bridges: config.bridges,
      rail,
      request: {
        sourceChain: 'base',
        destChain: 'arbitrum',
        amountMicros: 25n * M,
        sourceAddress: owner,
        destinationAddress: owner,
      },
      now: new Date(),
    });
    expect(plan.status).toBe('prepared');
    const planId = plan.planId as string;
    const stored = await findPlan(test.db, planId);
    expect(stored?.legs.map((leg) => [leg.action, leg.effect])).toEqual([
      ['transfer', 'bridge_fee'],
      ['approve', 'none'],
      ['burn', 'bridge_burn'],
    ]);
    const transfer = await findBridgeTransfer(test.db, planId);
    expect(transfer?.serviceFeeMicros).toBeGreaterThan(0n);
    expect(transfer?.burnMicros).toBe(25n * M - (transfer?.serviceFeeMicros ?? 0n));
  });
});
