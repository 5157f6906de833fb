import request from 'supertest';
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  Keypair,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { insertPlan } from '@yieldrouter/ledger';
import {
  FeesDocument,
  GasSponsorPlanDocument,
  RoutesDocument,
  SwapPlanDocument,
  newPlanId,
} from '@yieldrouter/schemas';
import { anvilAccounts, anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import type { ZeroExFake } from '@yieldrouter/chain-beds/quotes';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES } from './testing/startTestApp';
import type { SwapBedApp } from './testing/startSwapBedApp';
import { SWAP_FEE_RECIPIENT, startSwapBedApp } from './testing/startSwapBedApp';
import { itBlocksOnQuoteFaults, itRefusesBadInput } from './testing/swapTestTables';
import { expectSimulatedAsMined } from './testing/simulatedAsMined';

// The gas-sponsor plan end to end on anvil: the legs are sized by the node (eth_estimateGas, and
// eth_simulateV1 for a swap behind its approval), priced by the 0x-shaped fake over the bed's
// USDC/WETH pair, and the top-up legs, signed by the owner's anvil key, deliver native gas.
// The bed charges no base fee (anvil_setNextBlockBaseFeePerGas 0, which then stays 0), so a
// wallet short of gas can still send the top-up here; the sizing still prices a 1 gwei tip.
const FEE_RECIPIENT = SWAP_FEE_RECIPIENT;
const owner = anvilAccounts()[6];
if (!owner) throw new Error('no anvil account');
const HELD = 1_000n;

let bed: EvmBed;
let fake: ZeroExFake;
let t: TestApp;

const chain = () => anvilChain(8453, bed.anvil.rpcUrl);
const reader = () => createPublicClient({ chain: chain(), transport: http(bed.anvil.rpcUrl) });
const anvilRequest = (method: string, params: unknown[]) =>
  reader().request({ method: method as never, params: params as never });

let swapApp: SwapBedApp;

beforeAll(async () => {
  swapApp = await startSwapBedApp();
  ({ bed, fake, t } = swapApp);
  await bed.fixtures.mintUsdc(owner.address, 50_000_000n);
  await anvilRequest('anvil_setNextBlockBaseFeePerGas', ['0x0']);
  await anvilRequest('evm_mine', []);
  await anvilRequest('anvil_setBalance', [owner.address, `0x${HELD.toString(16)}`]);
}, 60_000);
afterAll(() => swapApp.close());
afterEach(() => fake.setMode('ok'));

const gasPlan = (body: Record<string, unknown>) =>
  request(t.app).post('/api/v1/svc/gas-sponsor/plan').send(body);
const transferCall = () => ({
  to: bed.fixtures.usdc,
  data: encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [FEE_RECIPIENT, 1_000_000n],
  }),
});
const inline = (extra: Record<string, unknown> = {}) => ({
  chain: 'base',
  owner: owner.address,
  calls: [transferCall()],
  ...extra,
});

describe('POST /svc/gas-sponsor/plan', () => {
  it("sizes a stored swap plan's legs, prices the top-up through 0x, and the signed legs deliver the gas", async () => {
    const swap = SwapPlanDocument.parse(
      (
        await request(t.app)
          .post('/api/v1/svc/evm/swap/plan')
          .send({
            chain: 'base',
            owner: owner.address,
            inputToken: 'USDC',
            outputToken: 'WETH',
            amountInMicros: '5000000',
          })
          .expect(200)
      ).body,
    );
    expect(swap.legs?.map((leg) => leg.action)).toEqual(['approve', 'swap']);

    const document = GasSponsorPlanDocument.parse(
      (await gasPlan({ chain: 'base', owner: owner.address, planId: swap.planId }).expect(200))
        .body,
    );
    expect(document).toMatchObject({
      kind: 'gas_sponsor',
      status: 'prepared',
      submitted: false,
      ownerMustSign: true,
      chain: 'base',
      owner: owner.address,
      nativeHeld: HELD.toString(),
      quoteSource: '0x',
    });
    const gasUnits = BigInt(document.gasUnits ?? '0');
    const feePerGas = BigInt(document.feePerGas ?? '0');
    const required = BigInt(document.nativeRequired ?? '0');
    const needed = BigInt(document.nativeNeeded ?? '0');
    // An approval (~46k gas) and a swap sized behind it (simulated, with headroom).
    expect(gasUnits > 60_000n && gasUnits < 400_000n).toBe(true);
    expect(feePerGas > 0n).toBe(true);
    expect(required).toBe(gasUnits * feePerGas);
    expect(needed).toBe(required - HELD);
    // The fee line: gasSponsorFeeBps of GET /svc/fees on the USDC sold, rounded down.
    const fees = FeesDocument.parse((await request(t.app).get('/api/v1/svc/fees')).body);
    const gross = BigInt(document.usdcCostMicros ?? '0');
    const feeLine = document.feeLines?.find((line) => line.kind === 'gas_sponsor_fee');
    expect(feeLine).toEqual({
      kind: 'gas_sponsor_fee',
      bps: fees.gasSponsorFeeBps,
      amountMicros: String((gross * BigInt(fees.gasSponsorFeeBps)) / 10_000n),
      token: 'USDC',
      payer: 'owner',
    });
    expect(document.feeMicros).toBe(feeLine?.amountMicros);
    expect(document.amountMicros).toBe(gross.toString());
    expect(fake.requests.at(-1)).toMatchObject({
      sellAmount: gross.toString(),
      swapFeeBps: String(fees.gasSponsorFeeBps),
      swapFeeRecipient: FEE_RECIPIENT,
      buyToken: bed.fixtures.weth,
    });
    expect(document.legs?.map((leg) => leg.action)).toEqual(['approve', 'swap', 'unwrap']);

    // The owner signs and sends each top-up leg (no fee on this bed): the native balance rises
    // by exactly the amount the plan said was missing.
    const wallet = createWalletClient({
      chain: chain(),
      transport: http(bed.anvil.rpcUrl),
      account: privateKeyToAccount(owner.privateKey),
    });
    const before = await reader().getBalance({ address: owner.address });
    expect(before).toBe(HELD);
    const hashes: Hex[] = [];
    for (const leg of document.legs ?? []) {
      const tx = leg.transaction as { to: Address; data: Hex; value: string };
      const hash = await wallet.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        maxFeePerGas: 0n,
        maxPriorityFeePerGas: 0n,
      });
      const receipt = await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 });
      expect(receipt.status).toBe('success');
      hashes.push(hash);
    }
    expect(await reader().getBalance({ address: owner.address })).toBe(required);
    // Issue 44: the approval, the swap and the unwrap did exactly what their simulation said.
    await expectSimulatedAsMined(reader(), document, { ...hashes });
  });

  it('sizes inline calls; a wallet that holds enough gets a prepared plan with nothing to sign', async () => {
    await anvilRequest('anvil_setBalance', [owner.address, '0xde0b6b3a7640000']);
    try {
      const document = GasSponsorPlanDocument.parse((await gasPlan(inline()).expect(200)).body);
      expect(document).toMatchObject({
        status: 'prepared',
        nativeNeeded: '0',
        nativeHeld: '1000000000000000000',
        usdcCostMicros: '0',
        feeMicros: '0',
        legs: [],
      });
    } finally {
      await anvilRequest('anvil_setBalance', [owner.address, `0x${HELD.toString(16)}`]);
    }
  });

  itBlocksOnQuoteFaults({
    app: () => t,
    noRoute: 'no_liquidity',
    setMode: (mode) => fake.setMode(mode),
    send: () => gasPlan(inline()),
    parse: (body) => GasSponsorPlanDocument.parse(body),
    unpriced: ['usdcCostMicros'],
  });

  it('a chain it cannot read blocks the plan (rpc_unavailable), never a 500', async () => {
    const document = GasSponsorPlanDocument.parse(
      (await gasPlan(inline({ chain: 'arbitrum', owner: SAMPLE_ADDRESSES.arbitrum })).expect(200))
        .body,
    );
    expect(document.status).toBe('blocked');
    expect(document.blockers?.map((entry) => entry.code)).toEqual(['rpc_unavailable']);
    expect(document.nativeNeeded).toBeUndefined();
  });

  it.each([
    // Solana and Sui size a plan's unsigned legs (gasSponsor.solana/sui.test.ts): none here.
    ['solana', ['gas_estimate_unavailable']],
    ['sui', ['gas_estimate_unavailable']],
  ] as const)(
    'a %s plan with no unsigned leg is blocked, no price made up',
    async (chainName, codes) => {
      const planId = newPlanId();
      await insertPlan(t.db, {
        id: planId,
        kind: 'deposit',
        status: 'blocked',
        chain: chainName,
        venueId: null,
        owner: SAMPLE_ADDRESSES[chainName],
        amountMicros: 1_000_000n,
        feeMicros: 0n,
        request: {},
        blockers: [{ code: 'venue_unknown', message: 'a plan of that chain, for sizing' }],
        legs: [],
        createdAt: new Date(),
      });
      const document = GasSponsorPlanDocument.parse(
        (
          await gasPlan({ chain: chainName, owner: SAMPLE_ADDRESSES[chainName], planId }).expect(
            200,
          )
        ).body,
      );
      expect(document).toMatchObject({ status: 'blocked', chain: chainName });
      expect(document.blockers?.map((entry) => entry.code)).toEqual(codes);
      expect(document.usdcCostMicros).toBeUndefined();
    },
  );

  it('a Solana plan on a chain it cannot read is blocked rpc_unavailable, no price made up', async () => {
    // One unsigned v0 leg (a memo from the owner); this app has no Solana RPC.
    const owner = new PublicKey(SAMPLE_ADDRESSES.solana);
    const message = new TransactionMessage({
      payerKey: owner,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
      instructions: [
        new TransactionInstruction({
          programId: new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'),
          keys: [],
          data: Buffer.from('svc:plan'),
        }),
      ],
    }).compileToV0Message();
    const planId = newPlanId();
    await insertPlan(t.db, {
      id: planId,
      kind: 'deposit',
      status: 'prepared',
      chain: 'solana',
      venueId: null,
      owner: SAMPLE_ADDRESSES.solana,
      amountMicros: 1_000_000n,
      feeMicros: 0n,
      request: {},
      blockers: [],
      legs: [
        {
          action: 'deposit',
          summary: 'a Solana leg to size',
          amountMicros: 1_000_000n,
          settles: true,
          payload: {
            encoding: 'solana-v0-base64',
            transaction: Buffer.from(new VersionedTransaction(message).serialize()).toString(
              'base64',
            ),
            lastValidBlockHeight: '1',
          },
        },
      ],
      createdAt: new Date(),
    });
    const document = GasSponsorPlanDocument.parse(
      (await gasPlan({ chain: 'solana', owner: SAMPLE_ADDRESSES.solana, planId }).expect(200)).body,
    );
    expect(document).toMatchObject({ status: 'blocked', chain: 'solana' });
    expect(document.blockers?.map((entry) => entry.code)).toEqual(['rpc_unavailable']);
    expect(document.nativeNeeded).toBeUndefined();
    expect(document.usdcCostMicros).toBeUndefined();
  });

  itRefusesBadInput({
    app: () => t,
    cases: [
      ['an unknown chain', { chain: 'ethereum' }, 'body.chain'],
      ['an owner of another chain', { owner: SAMPLE_ADDRESSES.solana }, 'body.owner'],
      ['an unknown planId', { calls: undefined, planId: newPlanId() }, 'body.planId'],
      ['a malformed planId', { calls: undefined, planId: 'nope' }, 'body.planId'],
      ['both planId and calls', { planId: newPlanId() }, 'body.planId'],
      ['neither planId nor calls', { calls: undefined }, 'body.planId'],
      [
        'a float value',
        { calls: [{ ...{ to: SAMPLE_ADDRESSES.base, data: '0x' }, value: '1.5' }] },
        'body.calls.0.value',
      ],
      [
        'a negative value',
        { calls: [{ to: SAMPLE_ADDRESSES.base, data: '0x', value: '-1' }] },
        'body.calls.0.value',
      ],
      [
        'calldata that is not hex',
        { calls: [{ to: SAMPLE_ADDRESSES.base, data: 'xyz' }] },
        'body.calls.0.data',
      ],
      ['calls on solana', { chain: 'solana', owner: SAMPLE_ADDRESSES.solana }, 'body.calls'],
    ],
    send: (change) => gasPlan(inline(change)),
    match: 'exact',
  });

  it('is listed as implemented in /svc/routes', async () => {
    const routes = RoutesDocument.parse((await request(t.app).get('/api/v1/svc/routes')).body);
    expect(
      routes.routes.find((route) => route.operationId === 'prepareGasSponsorPlan'),
    ).toMatchObject({ implemented: true, path: '/api/v1/svc/gas-sponsor/plan' });
  });
});
