import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { anvilChain, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import { verifyLedger } from '@yieldrouter/ledger';
import {
  HarvestCompletedData,
  HarvestResult,
  PlanDocument,
  PositionDocument,
  PublicActivityDocument,
  PublicPortfolioDocument,
  SettleLegResult,
  StoredPlanDocument,
} from '@yieldrouter/schemas';
import { createPublicClient, createWalletClient, erc20Abi, erc4626Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TestApp } from './testing/startTestApp';
import { freshSolanaKey, solanaBedSettings } from './testing/solanaBedSettings';
import { signAndSendLeg } from './testing/solanaRouterApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// The wallet money surface end to end on the local beds: a route leg the owner signs and the
// local SVM executes, settled from its receipt; a venue deposit and withdrawal the owner sends
// on anvil, settled from theirs. Every credit comes from a receipt; the ledger verifies clean.

const key = freshSolanaKey;
const ownerKey = `owner-all-${randomBytes(6).toString('hex')}`;
const scopedOwner = `owner-scoped-${randomBytes(6).toString('hex')}`;

let t: TestApp;
let solana: SolanaBed;
let evm: EvmBed;

beforeAll(async () => {
  [solana, evm] = await Promise.all([startSolanaBed(), startEvmBed({ chainId: 8453 })]);
  t = await startTestApp({
    ...solanaBedSettings(solana, deployYieldRouter(solana)),
    SVC_BASE_RPC_URL: evm.adapterConfig.rpcUrl,
    SVC_BASE_USDC_ADDRESS: evm.adapterConfig.usdcAddress,
    SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: evm.fixtures.vault } }),
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: ['*'] },
      { key: scopedOwner, role: 'owner', wallets: ['0x1111111111111111111111111111111111111111'] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([solana?.stop(), evm?.stop()]);
});

const post = (path: string, body: object, apiKey = ownerKey) =>
  request(t.app).post(`/api/v1${path}`).set('X-API-Key', apiKey).send(body);
const position = async (wallet: string) =>
  PositionDocument.parse(
    (await request(t.app).get(`/api/v1/wallets/${wallet}/position`).set('X-API-Key', ownerKey))
      .body,
  );
const settle = (planId: string, legIndex: number, txId: string, apiKey = ownerKey) =>
  post(`/svc/plans/${planId}/legs/${legIndex}/settle`, { txId }, apiKey);

/** The owner's Solana wallet signs the leg; the local SVM executes it. */
const signAndSend = (leg: { transaction: unknown }, owner: Keypair) =>
  signAndSendLeg(solana, leg, owner);

describe('route → sign → settle → position → withdraw (Solana, local SVM)', () => {
  it('credits liquid only from the receipt, exactly once', async () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    const wallet = owner.publicKey.toBase58();

    const routed = await post(`/wallets/${wallet}/route`, {
      amountMicros: '2500000',
      token: 'USDC',
      chain: 'solana',
    }).expect(200);
    const plan = PlanDocument.parse(routed.body);
    expect(plan).toMatchObject({ status: 'prepared', feeMicros: '0', ownerMustSign: true });
    expect(routed.body.pendingInMicros).toBe('2500000');
    expect(await position(wallet)).toMatchObject({ liquidMicros: '0', pendingInMicros: '2500000' });

    const [leg] = plan.legs ?? [];
    if (!leg || !plan.planId) throw new Error('no leg');
    const txId = signAndSend(leg, owner);
    expect(solana.usdcBalance(owner.publicKey)).toBe(7_500_000n);

    const settled = SettleLegResult.parse((await settle(plan.planId, 0, txId).expect(200)).body);
    expect(settled).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: '2500000',
      replay: false,
    });
    const after = await position(wallet);
    expect(after).toMatchObject({ liquidMicros: '2500000', pendingInMicros: '0' });
    expect(after.byChain.solana.liquidMicros).toBe('2500000');

    // Idempotent on the txId; another txId for a settled leg is a conflict.
    expect((await settle(plan.planId, 0, txId).expect(200)).body.replay).toBe(true);
    const conflict = await settle(plan.planId, 0, bs58.encode(randomBytes(64))).expect(409);
    expect(conflict.body.code).toBe('SETTLEMENT_CONFLICT');
    expect((await position(wallet)).liquidMicros).toBe('2500000');

    const events = await t.db.outboxEvent.findMany({
      where: { wallet },
      orderBy: { seq: 'asc' },
    });
    expect(events.map((event) => event.type)).toEqual(['deposit.settled', 'position.updated']);

    const activity = PublicActivityDocument.parse(
      (await request(t.app).get('/api/v1/svc/activity').query({ wallet }).expect(200)).body,
    );
    expect(activity.activity).toEqual([
      expect.objectContaining({
        planId: plan.planId,
        legIndex: 0,
        kind: 'deposit',
        txId,
        amountIn: '2500000',
        amountOut: '2500000',
        quotedAmountOut: '2500000',
        status: 'confirmed',
      }),
    ]);

    // Withdraw reserves from liquid at once; more than liquid is refused and writes nothing.
    const exit = await post(`/wallets/${wallet}/withdraw`, { amountMicros: '1000000' }).expect(200);
    expect(exit.body).toMatchObject({ kind: 'exit', chain: 'solana', pendingOutMicros: '1000000' });
    expect(await position(wallet)).toMatchObject({
      liquidMicros: '1500000',
      pendingOutMicros: '1000000',
    });
    const plans = await t.db.plan.count();
    const short = await post(`/wallets/${wallet}/withdraw`, { amountMicros: '1500001' }).expect(
      422,
    );
    expect(short.body).toMatchObject({ code: 'INSUFFICIENT_LIQUID' });
    expect(short.body.message).toContain('body.amountMicros');
    expect(await t.db.plan.count()).toBe(plans);
  });

  it('a transaction of another plan is refused without touching the leg; its own plan settles', async () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    const wallet = owner.publicKey.toBase58();
    const route = async (amountMicros: string) =>
      PlanDocument.parse(
        (await post(`/wallets/${wallet}/route`, { amountMicros, token: 'USDC', chain: 'solana' }))
          .body,
      );
    const small = await route('1000000');
    const large = await route('3000000');
    // The owner signs the small plan's transaction, then offers it for the large plan.
    const txId = signAndSend(small.legs?.[0] ?? { transaction: '' }, owner);
    const wrong = await settle(large.planId ?? '', 0, txId).expect(422);
    expect(wrong.body).toMatchObject({ code: 'RECEIPT_MISMATCH' });
    expect(wrong.body.message).toMatch(/no memo svc:plan_/);
    // Nothing moved, the large leg is untouched and the txId is still free for its own plan.
    expect(await position(wallet)).toMatchObject({ liquidMicros: '0', pendingInMicros: '4000000' });
    const stored = await request(t.app).get(`/api/v1/svc/plans/${large.planId}`).expect(200);
    expect(stored.body.legs[0]).toMatchObject({ status: 'unsigned', txId: null });
    expect((await settle(small.planId ?? '', 0, txId).expect(200)).body).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: '1000000',
    });
    expect(await position(wallet)).toMatchObject({
      liquidMicros: '1000000',
      pendingInMicros: '3000000',
    });
  });

  it('the owner cancels an unsigned plan: the reservation is back; only its owner may', async () => {
    const owner = solana.createFundedKeypair();
    const wallet = owner.publicKey.toBase58();
    const plan = PlanDocument.parse(
      (
        await post(`/wallets/${wallet}/route`, {
          amountMicros: '2000000',
          token: 'USDC',
          chain: 'solana',
        })
      ).body,
    );
    expect(await position(wallet)).toMatchObject({ pendingInMicros: '2000000' });
    const cancel = (planId: string, apiKey?: string) => {
      const call = request(t.app).post(`/api/v1/svc/plans/${planId}/cancel`).send({});
      return apiKey ? call.set('X-API-Key', apiKey) : call;
    };
    expect((await cancel(plan.planId ?? '').expect(401)).body.code).toBe('UNAUTHORIZED');
    expect((await cancel(plan.planId ?? '', testKeys.keeper).expect(403)).body.code).toBe(
      'UNAUTHORIZED',
    );
    expect((await cancel(plan.planId ?? '', scopedOwner).expect(403)).body.code).toBe(
      'WALLET_SCOPE',
    );
    const cancelled = await cancel(plan.planId ?? '', ownerKey).expect(200);
    expect(cancelled.body.legs[0]).toMatchObject({ status: 'cancelled' });
    expect(cancelled.body.legs[0].releasedAt).toEqual(expect.any(String));
    expect(await position(wallet)).toMatchObject({ pendingInMicros: '0', liquidMicros: '0' });
    // Again: the plan as it stands. Unknown: 404.
    expect((await cancel(plan.planId ?? '', ownerKey).expect(200)).body.legs[0].status).toBe(
      'cancelled',
    );
    expect((await cancel(`plan_${'0'.repeat(32)}`, ownerKey).expect(404)).body.code).toBe(
      'PLAN_NOT_FOUND',
    );
  });

  it('refuses a leg of a wallet outside the key and keeps the books untouched', async () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, 1_000_000n);
    const plan = PlanDocument.parse(
      (
        await post(`/wallets/${owner.publicKey.toBase58()}/route`, {
          amountMicros: '1000000',
          token: 'USDC',
          chain: 'solana',
        })
      ).body,
    );
    const txId = signAndSend(plan.legs?.[0] ?? { transaction: '' }, owner);
    const res = await settle(plan.planId ?? '', 0, txId, scopedOwner).expect(403);
    expect(res.body.code).toBe('WALLET_SCOPE');
    // The keeper settles it.
    expect(
      (await settle(plan.planId ?? '', 0, txId, testKeys.keeper).expect(200)).body.status,
    ).toBe('confirmed');
  });
});

describe('idempotency, batches and bad input', () => {
  it('one Idempotency-Key fired 20 times at once reserves once', async () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, 5_000_000n);
    const wallet = owner.publicKey.toBase58();
    const plan = PlanDocument.parse(
      (
        await post(`/wallets/${wallet}/route`, {
          amountMicros: '3000000',
          token: 'USDC',
          chain: 'solana',
        })
      ).body,
    );
    await settle(
      plan.planId ?? '',
      0,
      signAndSend(plan.legs?.[0] ?? { transaction: '' }, owner),
    ).expect(200);
    const idempotencyKey = `exit-${randomBytes(4).toString('hex')}`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(`/wallets/${wallet}/withdraw`, { amountMicros: '1000000' }).set(
          'Idempotency-Key',
          idempotencyKey,
        ),
      ),
    );
    const planIds = new Set(
      responses.filter((res) => res.status === 200).map((res) => res.body.planId),
    );
    expect(planIds.size).toBe(1);
    for (const res of responses) expect([200, 409]).toContain(res.status);
    expect(await position(wallet)).toMatchObject({
      liquidMicros: '2000000',
      pendingOutMicros: '1000000',
    });
  });

  it('batch positions: in order, one query; 51, duplicates or a wallet outside the key are refused', async () => {
    const wallets = [key(), '0x1111111111111111111111111111111111111111'];
    const res = await post('/wallets/batch/positions', { wallets }).expect(200);
    expect(res.body.count).toBe(2);
    expect(res.body.positions.map((entry: PositionDocument) => entry.wallet)).toEqual(wallets);
    const many = await post('/wallets/batch/positions', {
      wallets: Array.from({ length: 51 }, () => key()),
    }).expect(400);
    expect(many.body.message).toContain('body.wallets');
    const twice = await post('/wallets/batch/positions', {
      wallets: [wallets[0], wallets[0]],
    }).expect(400);
    expect(twice.body.message).toContain('body.wallets');
    const outside = await post(
      '/wallets/batch/positions',
      { wallets: [wallets[1], wallets[0]] },
      scopedOwner,
    ).expect(403);
    expect(outside.body).toMatchObject({ code: 'WALLET_SCOPE', field: 'body.wallets[1]' });
  });

  it.each([
    [{ amountMicros: '0', token: 'USDC', chain: 'solana' }, 'body.amountMicros'],
    [{ amountMicros: '1.5', token: 'USDC', chain: 'solana' }, 'body.amountMicros'],
    [{ amountMicros: '-1', token: 'USDC', chain: 'solana' }, 'body.amountMicros'],
    [{ amountMicros: '9223372036854775808', token: 'USDC', chain: 'solana' }, 'body.amountMicros'],
    [{ amountMicros: '1000000', token: 'DOGE', chain: 'solana' }, 'body.token'],
    [{ amountMicros: '1000000', token: 'USDC', chain: 'near' }, 'body.chain'],
    [{ amountMicros: '1000000', token: 'USDC', chain: 'solana', stake: 'yes' }, 'body.stake'],
    [{ amountMicros: '1000000', token: 'USDC', chain: 'sui' }, 'path.address'],
  ])('route %j → 400 naming %s, nothing written', async (body, field) => {
    const before = await t.db.plan.count();
    const res = await post(`/wallets/${key()}/route`, body).expect(400);
    expect(res.body.code).toBe('BAD_REQUEST');
    expect(`${res.body.field ?? ''} ${res.body.message}`).toContain(field);
    expect(await t.db.plan.count()).toBe(before);
  });
});

describe('venue deposit and withdrawal on anvil, settled into the staked position', () => {
  it('stakes and unstakes by the receipts; the portfolio shows the position with its txId', async () => {
    const privateKey = evm.anvil.accounts[3]?.privateKey;
    if (!privateKey) throw new Error('no anvil account');
    const account = privateKeyToAccount(privateKey);
    const chain = anvilChain(8453, evm.anvil.rpcUrl);
    const wallet = createWalletClient({ account, chain, transport: http(evm.anvil.rpcUrl) });
    const reader = createPublicClient({ chain, transport: http(evm.anvil.rpcUrl) });
    await evm.fixtures.mintUsdc(account.address, 50_000_000n);
    const sendLegs = async (plan: PlanDocument) => {
      const hashes: string[] = [];
      for (const leg of plan.legs ?? []) {
        const tx = leg.transaction as { to: Address; data: Hex };
        const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, gas: 300_000n });
        await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
        hashes.push(hash);
      }
      return hashes;
    };
    const plan = async (kind: 'deposit' | 'withdraw', amountMicros: string) =>
      PlanDocument.parse(
        (
          await request(t.app)
            .post(`/api/v1/svc/strategies/${kind}/plan`)
            .send({ strategyId: 'morpho', amountMicros, owner: account.address })
            .expect(200)
        ).body,
      );

    const deposit = await plan('deposit', '12000000');
    expect(deposit.status).toBe('prepared');
    const [, depositTx] = await sendLegs(deposit);
    expect((await settle(deposit.planId ?? '', 1, depositTx ?? '').expect(200)).body).toMatchObject(
      { status: 'confirmed', settledAmountMicros: '12000000' },
    );
    // The approve leg moves no money: it cannot be settled.
    expect((await settle(deposit.planId ?? '', 0, depositTx ?? '').expect(400)).body.code).toBe(
      'BAD_REQUEST',
    );

    const withdrawal = await plan('withdraw', '5000000');
    const [withdrawTx] = await sendLegs(withdrawal);
    expect(
      (await settle(withdrawal.planId ?? '', 0, withdrawTx ?? '').expect(200)).body,
    ).toMatchObject({ status: 'confirmed', settledAmountMicros: '5000000' });

    const staked = await position(account.address);
    expect(staked).toMatchObject({ stakedMicros: '7000000', liquidMicros: '0' });
    expect(staked.byChain.base.venues).toEqual([
      expect.objectContaining({ venueId: 'morpho', stakedMicros: '7000000' }),
    ]);

    const portfolio = PublicPortfolioDocument.parse(
      (
        await request(t.app)
          .get('/api/v1/svc/portfolio')
          .query({ wallet: account.address.toLowerCase() })
          .expect(200)
      ).body,
    );
    expect(portfolio).toMatchObject({
      schemaVersion: 'svc-wallet-portfolio.v1',
      wallet: account.address,
      count: 1,
      totalDepositedUsd: '7',
      totalCurrentUsd: '7',
    });
    expect(portfolio.positions[0]).toMatchObject({
      venueId: 'morpho',
      depositedMicros: '7000000',
      currentMicros: '7000000',
      roiPct: 0,
      txId: withdrawTx,
    });

    // Harvest (permissionless, no key): the value is read from the vault on chain.
    const harvest = (body: object) =>
      request(t.app).post(`/api/v1/wallets/${account.address}/harvest`).send(body);
    const idle = HarvestResult.parse((await harvest({}).expect(200)).body);
    expect(idle).toMatchObject({
      mode: 'no_op_harvest',
      outcome: 'blocked',
      grossYieldMicros: '0',
    });
    expect(idle.positions).toEqual([expect.objectContaining({ outcome: 'no_yield' })]);

    // The owner also deposits 3 USDC straight into the vault, outside any plan: that money is
    // reported as untracked and never skimmed as yield.
    const direct = async (hash: Promise<Hex>) =>
      reader.waitForTransactionReceipt({ hash: await hash, pollingInterval: 20 });
    await direct(
      wallet.writeContract({
        address: evm.fixtures.usdc,
        abi: erc20Abi,
        functionName: 'approve',
        args: [evm.fixtures.vault, 3_000_000n],
      }),
    );
    await direct(
      wallet.writeContract({
        address: evm.fixtures.vault,
        abi: erc4626Abi,
        functionName: 'deposit',
        args: [3_000_000n, account.address],
      }),
    );
    const outside = HarvestResult.parse((await harvest({}).expect(200)).body);
    expect(outside).toMatchObject({ mode: 'no_op_harvest', grossYieldMicros: '0' });
    expect(BigInt(outside.positions[0]?.untrackedMicros ?? '0')).toBeGreaterThanOrEqual(2_999_999n);

    // Yield accrues in the vault: its assets grow while the owner's shares stay put.
    await evm.fixtures.mintUsdc(evm.fixtures.vault, 1_000_000n);
    const prepared = HarvestResult.parse((await harvest({ execute: true }).expect(202)).body);
    expect(prepared).toMatchObject({ mode: 'prepare_only', outcome: 'prepared', prepared: true });
    expect((await position(account.address)).stakedMicros).toBe('7000000');
    // Its plan realises the yield; with no treasury configured on this chain, only the owner's
    // net yield: the protocol's share stays in the position (no skim leg to carry it).
    const [realising] = prepared.positions;
    const realise = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${realising?.planId}`).expect(200)).body,
    );
    expect(realise.legs.map((leg) => [leg.action, leg.amountMicros])).toEqual([
      ['withdraw', realising?.netYieldMicros],
    ]);

    // Amounts never come from the body (refused, naming the field): only the chain says what
    // was earned.
    const offered = await harvest({ grossYieldMicros: '999999999' }).expect(400);
    expect(offered.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.grossYieldMicros' });
    const done = HarvestResult.parse((await harvest({}).expect(200)).body);
    const [measured] = done.positions;
    // The yield of the 7 USDC of shares our plans minted; the 3 outside are not in it.
    const value = BigInt(measured?.valueMicros ?? '0');
    expect(value > 7_600_000n && value <= 7_700_000n).toBe(true);
    expect(BigInt(measured?.untrackedMicros ?? '0')).toBeGreaterThan(3_000_000n);
    const gross = value - 7_000_000n;
    const skim = (gross * 500n) / 10_000n;
    expect(done).toMatchObject({
      mode: 'compound',
      outcome: 'harvested',
      httpStatus: 200,
      grossYieldMicros: String(gross),
      protocolFeeMicros: String(skim),
      profitFeeMicros: '0',
      netYieldMicros: String(gross - skim),
    });
    expect(prepared.grossYieldMicros).toBe(String(gross));
    const compounded = 7_000_000n + gross - skim;
    expect((await position(account.address)).stakedMicros).toBe(String(compounded));
    const again = HarvestResult.parse((await harvest({}).expect(200)).body);
    expect(again).toMatchObject({ mode: 'no_op_harvest', grossYieldMicros: '0' });
    const events = await t.db.outboxEvent.findMany({
      where: { wallet: account.address, type: 'harvest.completed' },
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({ harvestId: measured?.harvestId });
    // What webhook receivers get: the documented payload schema, exactly.
    expect(HarvestCompletedData.strict().parse(events[0]?.payload)).toMatchObject({
      grossYieldMicros: String(gross),
    });

    // Withdraw everything the books say the wallet owns; the skim (and the outside deposit)
    // stay in the vault.
    const exit = await plan('withdraw', String(compounded));
    const [exitTx] = await sendLegs(exit);
    await settle(exit.planId ?? '', 0, exitTx ?? '').expect(200);
    const emptied = await position(account.address);
    expect(emptied).toMatchObject({ stakedMicros: '0', liquidMicros: '0' });
    const finalPortfolio = PublicPortfolioDocument.parse(
      (await request(t.app).get('/api/v1/svc/portfolio').query({ wallet: account.address })).body,
    );
    expect(finalPortfolio.count).toBe(0);
  });
});

describe('after the flows', () => {
  it('the ledger verifies clean', async () => {
    const report = await verifyLedger(t.db);
    expect(report.problems).toEqual([]);
  });
});
