import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import { verifyLedger } from '@yieldrouter/ledger';
import {
  AutoPayRunDocument,
  HarvestResult,
  PlanDocument,
  RebalancePlanDocument,
} from '@yieldrouter/schemas';
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  erc4626Abi,
  getAddress,
  http,
} from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TestApp } from './testing/startTestApp';
import type { VaultBedApp } from './testing/startVaultBedApp';
import { startVaultBedApp } from './testing/startVaultBedApp';
import { harvestExecute } from './testing/harvestExecute';
import { protocolFees } from './testing/swapTestTables';
import {
  expectOneSkimReceivable,
  receivableOf,
  reconcileTestBooks,
} from './testing/reconcileTestBooks';

// Issue #46 on the EVM bed (anvil, an ERC-4626 vault): the owner holds the vault shares, so the
// withdraw plan carries the skim as its next leg, a USDC transfer to SVC_BASE_TREASURY. Deposit →
// yield accrues → harvest → a partial withdrawal grossed up (the owner receives what was asked)
// → withdraw everything: the treasury's balance is fees:protocol to the micro, the owner got
// principal + net yield, the books verify and reconcile. A plan signed without its skim leg
// books a receivable that reconciliation raises.
const ownerKey = `owner-${randomBytes(6).toString('hex')}`;
const TREASURY = getAddress(`0x${randomBytes(20).toString('hex')}`);

let t: TestApp;
let evm: EvmBed;

let bed: VaultBedApp;
beforeAll(async () => {
  bed = await startVaultBedApp(
    {
      SVC_BASE_TREASURY: TREASURY,
      SVC_API_KEYS: JSON.stringify([{ key: ownerKey, role: 'owner', wallets: ['*'] }]),
    },
    { aave: true },
  );
  ({ t, evm } = bed);
}, 120_000);
afterAll(() => bed?.close());

function ownerOf(index: number) {
  const privateKey = evm.anvil.accounts[index]?.privateKey;
  if (!privateKey) throw new Error('no anvil account');
  const account = privateKeyToAccount(privateKey);
  const chain = anvilChain(8453, evm.anvil.rpcUrl);
  const wallet = createWalletClient({ account, chain, transport: http(evm.anvil.rpcUrl) });
  return { owner: account.address, wallet };
}
const reader = () =>
  createPublicClient({
    chain: anvilChain(8453, evm.anvil.rpcUrl),
    transport: http(evm.anvil.rpcUrl),
  });
const usdcOf = (address: string) =>
  reader().readContract({
    address: evm.fixtures.usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address as Address],
  });
const maxWithdraw = (owner: Address) =>
  reader().readContract({
    address: evm.fixtures.vault,
    abi: erc4626Abi,
    functionName: 'maxWithdraw',
    args: [owner],
  });
const receivable = () => receivableOf(t, 'base');
const reconcile = () => reconcileTestBooks(t);

async function flow(index: number, { harvest: book = true }: { harvest?: boolean } = {}) {
  const { owner, wallet } = ownerOf(index);
  await evm.fixtures.mintUsdc(owner, 20_000_000n);
  const send = async (leg: { transaction: unknown }) => {
    const tx = leg.transaction as { to: Address; data: Hex };
    const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, gas: 300_000n });
    await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 });
    return hash;
  };
  const settle = (planId: string, legIndex: number, txId: string) =>
    request(t.app)
      .post(`/api/v1/svc/plans/${planId}/legs/${legIndex}/settle`)
      .set('X-API-Key', ownerKey)
      .send({ txId })
      .expect(200);
  const plan = async (kind: 'deposit' | 'withdraw', amountMicros: bigint) =>
    PlanDocument.parse(
      (
        await request(t.app)
          .post(`/api/v1/svc/strategies/${kind}/plan`)
          .send({ strategyId: 'morpho', amountMicros: String(amountMicros), owner })
          .expect(200)
      ).body,
    );
  /** The owner signs and sends `legs` of the plan in order; each settling one is settled. */
  const signAndSettle = async (document: PlanDocument, legs = document.legs?.length ?? 0) => {
    for (const [index, leg] of (document.legs ?? []).slice(0, legs).entries()) {
      const hash = await send(leg);
      if (leg.settles) await settle(document.planId ?? '', index, hash);
    }
  };
  const deposit = await plan('deposit', 10_000_000n);
  await signAndSettle(deposit);
  // Yield accrues in the vault (the owner holds every share): the harvest books it.
  await evm.fixtures.mintUsdc(evm.fixtures.vault, 1_000_000n);
  if (!book) return { owner, plan, signAndSettle, feeMicros: 0n };
  const harvest = HarvestResult.parse(
    (await request(t.app).post(`/api/v1/wallets/${owner}/harvest`).send({}).expect(200)).body,
  );
  expect(harvest.outcome).toBe('harvested');
  return { owner, plan, signAndSettle, feeMicros: BigInt(harvest.protocolFeeMicros) };
}

/** The ledger verifies and reconciliation (treasury included) finds nothing. */
async function expectBooksClean() {
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  expect(await reconcile()).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
}

/** Simulated, nothing found; the skim leg (index 1) moves `skim` from the owner to the treasury. */
function expectSkimSimulated(document: PlanDocument, owner: string, skim: bigint) {
  expect(document.simulation).toMatchObject({ status: 'simulated', findings: [] });
  const simulated = document.simulation?.status === 'simulated' ? document.simulation.legs : [];
  expect(simulated[1]?.changes.filter((change) => change.usdc)).toEqual([
    expect.objectContaining({ account: owner, role: 'owner', delta: String(-skim) }),
    expect.objectContaining({ account: TREASURY, role: 'treasury', delta: String(skim) }),
  ]);
}

it('harvest → partial withdrawal → withdraw everything: treasury == fees:protocol', async () => {
  const treasuryBefore = await usdcOf(TREASURY);
  const feesBefore = await protocolFees(t);
  const { owner, plan, signAndSettle, feeMicros } = await flow(6);
  expect(feeMicros).toBeGreaterThan(0n);

  // A partial withdrawal of 4 USDC pays the owner 4 USDC: the venue pays it grossed up.
  const partial = await plan('withdraw', 4_000_000n);
  expect(partial.legs?.map((leg) => [leg.action, leg.settles])).toEqual([
    ['withdraw', true],
    ['transfer', true],
  ]);
  const partialSkim = BigInt(partial.skim?.skimMicros ?? '0');
  expect(partialSkim).toBeGreaterThan(0n);
  expect(BigInt(partial.skim?.grossMicros ?? '0')).toBe(4_000_000n + partialSkim);
  const before = await usdcOf(owner);
  await signAndSettle(partial);
  expect((await usdcOf(owner)) - before).toBe(4_000_000n);

  // Everything the vault holds for the owner: the rest of the protocol's share goes with it.
  const everything = await maxWithdraw(owner);
  const exit = await plan('withdraw', everything);
  const exitSkim = BigInt(exit.skim?.skimMicros ?? '0');
  expect(partialSkim + exitSkim).toBeGreaterThanOrEqual(feeMicros - 1n);
  await signAndSettle(exit);

  const collected = (await usdcOf(TREASURY)) - treasuryBefore;
  expect(collected).toBe(partialSkim + exitSkim);
  expect((await protocolFees(t)) - feesBefore).toBe(collected);
  expect(await receivable()).toBe(0n);
  // Principal + net yield: 10 USDC in, everything out less what the treasury received.
  expect(await usdcOf(owner)).toBe(10_000_000n + 4_000_000n + everything - exitSkim);
  expect(await maxWithdraw(owner)).toBe(0n);
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  expect(await reconcile()).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
});

it('harvest (execute) realises the yield and pays the skim; then withdraw everything', async () => {
  const treasuryBefore = await usdcOf(TREASURY);
  const feesBefore = await protocolFees(t);
  const { owner, plan, signAndSettle } = await flow(8, { harvest: false });
  const value = await maxWithdraw(owner);

  // execute:true books nothing and answers the plan that realises the yield for the owner.
  const { position, plan: realise } = await harvestExecute(t, owner);
  expect(await protocolFees(t)).toBe(feesBefore);
  expect(realise.legs.map((leg) => [leg.action, leg.settles])).toEqual([
    ['withdraw', true],
    ['transfer', true],
  ]);
  // The venue pays everything above the 10 USDC staked; the treasury gets the whole skim.
  const [withdrawLeg, skimLeg] = realise.legs;
  const skim = BigInt(skimLeg?.amountMicros ?? '0');
  expect(BigInt(withdrawLeg?.amountMicros ?? '0')).toBe(value - 10_000_000n);
  expect(skim).toBe(((value - 10_000_000n) * 500n) / 10_000n);
  expect(BigInt(position.protocolFeeMicros ?? '0')).toBe(skim);
  const before = await usdcOf(owner);
  await signAndSettle(realise);
  // The owner received exactly the net yield; the treasury the skim; fees:protocol follows it.
  expect((await usdcOf(owner)) - before).toBe(BigInt(position.netYieldMicros ?? '0'));
  expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(skim);
  expect((await protocolFees(t)) - feesBefore).toBe(skim);

  // Withdraw everything: the principal is still in the vault.
  const everything = await maxWithdraw(owner);
  expect(everything).toBeGreaterThanOrEqual(10_000_000n - 1n);
  const exit = await plan('withdraw', everything);
  const exitSkim = BigInt(exit.skim?.skimMicros ?? '0');
  await signAndSettle(exit);
  const collected = (await usdcOf(TREASURY)) - treasuryBefore;
  expect(collected).toBe(skim + exitSkim);
  expect((await protocolFees(t)) - feesBefore).toBe(collected);
  expect(await receivable()).toBe(0n);
  // Principal + net yield: the 10 USDC never deposited, the net yield, then the principal.
  expect(await usdcOf(owner)).toBe(
    10_000_000n + (value - 10_000_000n - skim) + (everything - exitSkim),
  );
  expect(await maxWithdraw(owner)).toBe(0n);
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  expect(await reconcile()).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
});

it('harvest → rebalance everything: the treasury gets the skim, aave-v3 what was staked', async () => {
  const treasuryBefore = await usdcOf(TREASURY);
  const feesBefore = await protocolFees(t);
  const { owner, signAndSettle, feeMicros } = await flow(5);
  const value = await maxWithdraw(owner);
  const wallet = await usdcOf(owner);
  const answer = await request(t.app)
    .post(`/api/v1/wallets/${owner}/rebalance`)
    .set('X-API-Key', ownerKey)
    .send({ fromOpportunityId: 'morpho', toOpportunityId: 'aave-v3', amountMicros: 'all' })
    .expect(200);
  const rebalance = RebalancePlanDocument.parse(answer.body);
  // The staked balance moves; the venue pays it plus the protocol's share, which the next leg
  // (the withdraw plan's skim) sends to the treasury.
  const moved = BigInt(rebalance.amountMicros ?? '0');
  expect(moved + feeMicros).toBe(value);
  expect(rebalance.skim).toEqual({
    treasury: TREASURY,
    skimMicros: String(feeMicros),
    grossMicros: String(value),
  });
  expect(rebalance.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
    ['withdraw', String(value)],
    ['transfer', String(feeMicros)],
    ['approve', String(moved)],
    ['deposit', String(moved)],
  ]);
  expectSkimSimulated(rebalance, owner, feeMicros);

  await signAndSettle(rebalance);
  expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(feeMicros);
  expect((await protocolFees(t)) - feesBefore).toBe(feeMicros);
  expect(await receivable()).toBe(0n);
  // The owner's wallet is where it was; aave-v3 holds what was staked in morpho.
  expect(await usdcOf(owner)).toBe(wallet);
  expect(await maxWithdraw(owner)).toBe(0n);
  const aToken = await reader().readContract({
    address: evm.fixtures.aToken,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [owner],
  });
  expect(aToken).toBe(moved);
  await expectBooksClean();
});

it('harvest → auto-pay run → withdraw everything: the run pays its skim, the payee its payout', async () => {
  const treasuryBefore = await usdcOf(TREASURY);
  const feesBefore = await protocolFees(t);
  const { owner, plan, signAndSettle } = await flow(4, { harvest: false });
  const payee = getAddress(`0x${randomBytes(20).toString('hex')}`);
  const path = `/api/v1/wallets/${owner}/auto-pay`;
  const config = { enabled: true, percentage: 50, trigger: 'manual' };
  const payees = [{ payeeId: 'payee', address: payee, weightBps: 10_000 }];
  await request(t.app)
    .put(path)
    .set('X-API-Key', ownerKey)
    .send({ ...config, payees })
    .expect(200);
  // The harvest books the yield; the pool takes half of the net.
  const harvest = HarvestResult.parse(
    (await request(t.app).post(`/api/v1/wallets/${owner}/harvest`).send({}).expect(200)).body,
  );
  const feeMicros = BigInt(harvest.protocolFeeMicros);
  const run = AutoPayRunDocument.parse(
    (await request(t.app).post(path).set('X-API-Key', ownerKey).send({}).expect(200)).body,
  );
  // The venue pays the payout grossed up; the withdraw plan's skim goes to the treasury first.
  const paid = BigInt(run.amountMicros ?? '0');
  const runSkim = BigInt(run.skim?.skimMicros ?? '0');
  expect(runSkim).toBeGreaterThan(0n);
  expect(run.skim).toEqual({
    treasury: TREASURY,
    skimMicros: String(runSkim),
    grossMicros: String(paid + runSkim),
  });
  expect(run.legs?.map((leg) => [leg.action, leg.amountMicros])).toEqual([
    ['withdraw', String(paid + runSkim)],
    ['transfer', String(runSkim)],
    ['transfer', String(paid)],
  ]);
  expectSkimSimulated(run, owner, runSkim);
  await signAndSettle(run);
  // The payee got exactly the payout; the treasury the run's skim; nothing owed.
  expect(await usdcOf(payee)).toBe(paid);
  expect((await usdcOf(TREASURY)) - treasuryBefore).toBe(runSkim);
  expect((await protocolFees(t)) - feesBefore).toBe(feeMicros);
  expect(await receivable()).toBe(0n);

  // Withdraw everything: the rest of the protocol's share goes with it.
  const exit = await plan('withdraw', await maxWithdraw(owner));
  const exitSkim = BigInt(exit.skim?.skimMicros ?? '0');
  await signAndSettle(exit);
  const collected = (await usdcOf(TREASURY)) - treasuryBefore;
  expect(collected).toBe(runSkim + exitSkim);
  // The harvest's fee, and the fee on any micro of yield the exit's price shows since.
  expect(collected).toBeGreaterThanOrEqual(feeMicros);
  expect((await protocolFees(t)) - feesBefore).toBe(collected);
  expect(await receivable()).toBe(0n);
  await expectBooksClean();
});

it('a withdraw plan signed without its skim leg books a receivable; reconciliation raises it', async () => {
  const { owner, plan, signAndSettle, feeMicros } = await flow(7);
  const owedBefore = await receivable();
  const exit = await plan('withdraw', await maxWithdraw(owner));
  const skim = BigInt(exit.skim?.skimMicros ?? '0');
  expect(skim).toBeGreaterThanOrEqual(feeMicros - 1n);
  await signAndSettle(exit, 1);
  expect((await receivable()) - owedBefore).toBe(skim);
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  await expectOneSkimReceivable(t, await reconcile(), { owner, chain: 'base', micros: skim });
});

it('harvest (execute) with an Idempotency-Key: a retry answers the same plan', async () => {
  const { owner } = await flow(9, { harvest: false });
  const post = () =>
    request(t.app)
      .post(`/api/v1/wallets/${owner}/harvest`)
      .set('Idempotency-Key', `harvest-execute-${owner}`)
      .send({ execute: true })
      .expect(202);
  const first = HarvestResult.parse((await post()).body);
  const again = await post();
  expect(again.header['idempotent-replayed']).toBe('true');
  expect(HarvestResult.parse(again.body).positions[0]?.planId).toBe(first.positions[0]?.planId);
  expect(await t.db.plan.count({ where: { owner, kind: 'withdraw' } })).toBe(1);
});
