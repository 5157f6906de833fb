import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { anvilChain, compileContracts, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import {
  CageDocument,
  CagePlanDocument,
  WalletCageDocument,
  planIdToBytes,
} from '@yieldrouter/schemas';
import { bytesToHex, createPublicClient, createWalletClient, http, parseEventLogs } from 'viem';
import type { Abi, Address, Hex, TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { expectSimulatedAsMined } from './testing/simulatedAsMined';

// Every cage route against the cage deployed on both anvil beds (Base 8453, Arbitrum 42161):
// the owner signs what the API prepared with its anvil key, anvil executes it, and the event
// carries the plan id. What the policy would refuse comes back `rejected`, naming the lock.

const ownerKey = `owner-cage-${randomBytes(6).toString('hex')}`;
const USDC = 1_000_000n;
let t: TestApp;
let beds: { base: EvmBed; arbitrum: EvmBed };
let cageAbi: Abi;

beforeAll(async () => {
  const [base, arbitrum] = await Promise.all([
    startEvmBed({ chainId: 8453 }),
    startEvmBed({ chainId: 42161 }),
  ]);
  beds = { base, arbitrum };
  cageAbi = (await compileContracts()).YieldCage.abi;
  t = await startTestApp({
    SVC_RPC_TIMEOUT_MS: '2000',
    SVC_BASE_RPC_URL: base.adapterConfig.rpcUrl,
    SVC_BASE_USDC_ADDRESS: base.fixtures.usdc,
    SVC_BASE_CAGE_ADDRESS: base.fixtures.cage,
    SVC_ARBITRUM_RPC_URL: arbitrum.adapterConfig.rpcUrl,
    SVC_ARBITRUM_USDC_ADDRESS: arbitrum.fixtures.usdc,
    SVC_ARBITRUM_CAGE_ADDRESS: arbitrum.fixtures.cage,
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: ['*'] },
      { key: testKeys.agent, role: 'agent', wallets: ['*'] },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([beds?.base.stop(), beds?.arbitrum.stop()]);
});

/** Anvil account `index` on `bed`, signing locally as the owner's wallet would. */
function signer(bed: EvmBed, index: number) {
  const key = bed.anvil.accounts[index]?.privateKey;
  if (!key) throw new Error(`no anvil account ${index}`);
  const account = privateKeyToAccount(key);
  const chain = anvilChain(bed.anvil.chainId, bed.anvil.rpcUrl);
  const transport = http(bed.anvil.rpcUrl);
  const wallet = createWalletClient({ account, chain, transport });
  const reader = createPublicClient({ chain, transport });
  return {
    address: account.address,
    /** Signs and sends a prepared transaction; the receipt. */
    async send(tx: { chainId: number; from: string; to: string; data: string }) {
      expect(tx.from).toBe(account.address);
      expect(tx.chainId).toBe(bed.anvil.chainId);
      const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex });
      return reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    },
  };
}

/** The cage's `ActionExecuted` event in a receipt, decoded with the compiled contract's ABI. */
function actionEvent(receipt: TransactionReceipt): Record<string, unknown> | undefined {
  const [event] = parseEventLogs({ abi: cageAbi, logs: receipt.logs, eventName: 'ActionExecuted' });
  return event?.args as Record<string, unknown> | undefined;
}

describe.each(['base', 'arbitrum'] as const)('the %s cage', (chain) => {
  const bed = () => beds[chain];
  const owner = () => signer(bed(), 1);
  const payee = () => signer(bed(), 3).address;
  const stranger = () => signer(bed(), 4).address;
  const api = (path: string) => `/api/v1${path}`;
  const prepare = async (body: Record<string, unknown>) => {
    const res =
      chain === 'arbitrum'
        ? await request(t.app)
            .post(api('/svc/arbitrum/cage/prepare'))
            .send({ wallet: owner().address, ...body })
        : await request(t.app)
            .post(api(`/wallets/${owner().address}/base/cage/prepare`))
            .set('X-API-Key', ownerKey)
            .send(body);
    expect(res.status).toBe(200);
    return CagePlanDocument.parse(res.body);
  };
  const readPolicy = async () =>
    WalletCageDocument.parse(
      (
        await request(t.app)
          .get(api(`/wallets/${owner().address}/${chain}/cage`))
          .set('X-API-Key', testKeys.agent)
          .expect(200)
      ).body,
    );
  const execute = async (plan: CagePlanDocument) => {
    expect(plan).toMatchObject({ status: 'prepared', ownerMustSign: true, submitted: false });
    const hashes: string[] = [];
    if (plan.approvalRequest) {
      hashes.push((await owner().send(plan.approvalRequest)).transactionHash);
    }
    if (!plan.transactionRequest) throw new Error('no transaction');
    const receipt = await owner().send(plan.transactionRequest);
    expect(receipt.status).toBe('success');
    hashes.push(receipt.transactionHash);
    // Issue 44: an action's approval and call did exactly what their simulation said (a policy
    // change moves no money: it is not simulated).
    if (plan.kind !== 'POLICY') {
      const reader = createPublicClient({ transport: http(bed().anvil.rpcUrl) });
      await expectSimulatedAsMined(reader, plan, { ...hashes });
    }
    return receipt;
  };

  it('GET /svc/{chain}/cage: the six actions, their locks and the deployed contract', async () => {
    const doc = CageDocument.parse(
      (
        await request(t.app)
          .get(api(`/svc/${chain}/cage`))
          .expect(200)
      ).body,
    );
    expect(doc.contract).toEqual({ address: bed().fixtures.cage, reason: null, detail: null });
    expect(doc.actions.map((action) => action.kind)).toEqual([
      'ROUTE',
      'EXIT',
      'REBALANCE',
      'HARVEST',
      'COMPOUND',
      'AUTOPAY',
    ]);
    expect(doc).toMatchObject({ executionMode: 'owner_sign_prepare', broadcast: false });
  });

  it('PUT policy prepares the owner-signed setPolicy; GET reads it back from chain', async () => {
    expect((await readPolicy()).policy).toMatchObject({ enabled: false, venues: [] });
    const res = await request(t.app)
      .put(api(`/wallets/${owner().address}/${chain}/cage/policy`))
      .set('X-API-Key', ownerKey)
      .send({
        enabled: true,
        skimBps: 500,
        venues: [bed().fixtures.vault, bed().fixtures.altVault],
        payees: [payee()],
      })
      .expect(200);
    const plan = CagePlanDocument.parse(res.body);
    expect(plan.kind).toBe('POLICY');
    // Nothing is stored: until the owner's transaction is mined the chain still says disabled.
    expect((await readPolicy()).policy?.enabled).toBe(false);
    await execute(plan);
    const read = await readPolicy();
    expect(read).toMatchObject({ status: 'available', paused: false, cage: bed().fixtures.cage });
    expect(read.policy).toMatchObject({ enabled: true, skimBps: 500, agent: null });
    expect(read.policy?.venues.map((venue) => venue.venue)).toEqual([
      bed().fixtures.vault,
      bed().fixtures.altVault,
    ]);
    expect(read.policy?.payees).toEqual([payee()]);
  });

  it('a prepared ROUTE, signed by the owner and sent to anvil, emits the plan id', async () => {
    await bed().fixtures.mintUsdc(owner().address, 50n * USDC);
    const plan = await prepare({
      kind: 'ROUTE',
      venue: bed().fixtures.vault,
      amountMicros: '30000000',
    });
    expect(plan.approvalRequest?.to).toBe(bed().fixtures.usdc);
    const receipt = await execute(plan);
    const event = actionEvent(receipt);
    expect(event?.planId).toBe(bytesToHex(planIdToBytes(plan.planId)));
    expect(event?.assets).toBe(30n * USDC);
    const venue = (await readPolicy()).policy?.venues[0];
    expect(venue).toMatchObject({ assetsMicros: '30000000', principalMicros: '30000000' });
  });

  it('REBALANCE, AUTOPAY and EXIT within the locks execute', async () => {
    const { vault, altVault } = bed().fixtures;
    await execute(
      await prepare({
        kind: 'REBALANCE',
        fromVenue: vault,
        toVenue: altVault,
        amountMicros: '10000000',
      }),
    );
    await execute(
      await prepare({ kind: 'AUTOPAY', venue: altVault, payee: payee(), amountMicros: '2000000' }),
    );
    const receipt = await execute(
      await prepare({
        kind: 'EXIT',
        venue: vault,
        payee: owner().address,
        amountMicros: '5000000',
      }),
    );
    const event = actionEvent(receipt);
    expect(event?.destination).toBe(owner().address);
  });

  it('what the policy refuses comes back rejected, naming the lock, with no transaction', async () => {
    const { vault, aToken } = bed().fixtures;
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'EXIT', venue: vault, payee: stranger(), amountMicros: '1' }, 'owner_destination'],
      [
        { kind: 'COMPOUND', venue: vault, payee: stranger(), amountMicros: '1' },
        'owner_destination',
      ],
      [{ kind: 'AUTOPAY', venue: vault, payee: stranger(), amountMicros: '1' }, 'payee_allowlist'],
      [
        { kind: 'REBALANCE', fromVenue: vault, toVenue: aToken, amountMicros: '1' },
        'venue_allowlist',
      ],
      [{ kind: 'ROUTE', venue: aToken, amountMicros: '1' }, 'venue_allowlist'],
      [{ kind: 'HARVEST', venue: vault, amountMicros: '1' }, 'harvestable_yield'],
      [{ kind: 'EXIT', venue: vault, amountMicros: '999000000' }, 'position_balance'],
      [{ kind: 'ROUTE', venue: vault, amountMicros: '999000000' }, 'wallet_balance'],
    ];
    for (const [body, lock] of cases) {
      const plan = await prepare(body);
      expect({ body, status: plan.status, lock: plan.lock }).toEqual({
        body,
        status: 'rejected',
        lock,
      });
      expect(plan.transactionRequest).toBeNull();
    }
  });

  it('HARVEST takes yield only; a pause refuses all but EXIT, which still executes', async () => {
    await bed().fixtures.simulateYield(4n * USDC);
    const venue = (await readPolicy()).policy?.venues[0];
    const earned = BigInt(venue?.yieldMicros ?? '0');
    expect(earned).toBeGreaterThan(0n);
    await execute(
      await prepare({
        kind: 'HARVEST',
        venue: bed().fixtures.vault,
        amountMicros: String(earned / 2n),
      }),
    );
    await bed().fixtures.setCagePaused(true);
    try {
      const route = await prepare({
        kind: 'ROUTE',
        venue: bed().fixtures.vault,
        amountMicros: '1',
      });
      expect(route).toMatchObject({ status: 'rejected', lock: 'cage_paused' });
      await execute(
        await prepare({ kind: 'EXIT', venue: bed().fixtures.vault, amountMicros: '1000000' }),
      );
    } finally {
      await bed().fixtures.setCagePaused(false);
    }
  });
});
