import request from 'supertest';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import { PlanDocument } from '@yieldrouter/schemas';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';
import { solanaBedSettings } from './testing/solanaBedSettings';

// Deposit and withdraw plans: prepared with unsigned legs from the chain adapter, or blocked
// with catalog blockers — the same shape for every venue, stored either way.
const VAULT = '0x52908400098527886E0F7030069857D2E4169EE7';
const EVM_OWNER = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const key = () => Keypair.generate().publicKey.toBase58();

let t: TestApp;
let solana: SolanaBed;
beforeAll(async () => {
  solana = await startSolanaBed();
  // The router deployed on the bed: a Solana venue leg reads the registry's fee configuration
  // (the yield skim), and a registry that is not on chain blocks the plan.
  t = await startTestApp({
    ...solanaBedSettings(solana, deployYieldRouter(solana)),
    SVC_VENUE_IDS: JSON.stringify({
      morpho: { vault: VAULT },
      kamino: {
        klendProgram: key(),
        lendingMarket: key(),
        reserve: key(),
        reserveLiquiditySupply: key(),
        reserveCollateralMint: key(),
      },
    }),
  });
});
afterAll(async () => {
  await t.close();
  await solana.stop();
});

const prepare = (kind: 'deposit' | 'withdraw', body: Record<string, unknown>) =>
  request(t.app).post(`/api/v1/svc/strategies/${kind}/plan`).send(body);

describe('deposit and withdraw plans', () => {
  it('prepares an ERC-4626 deposit on Base: approve + deposit legs, fee 0, stored', async () => {
    const res = await prepare('deposit', {
      strategyId: 'morpho',
      amountMicros: '25000000',
      owner: EVM_OWNER.toLowerCase(),
    }).expect(200);
    const plan = PlanDocument.parse(res.body);
    expect(plan).toMatchObject({
      status: 'prepared',
      submitted: false,
      ownerMustSign: true,
      feeMicros: '0',
      strategyId: 'morpho',
      amountMicros: '25000000',
      chain: 'base',
      owner: EVM_OWNER,
      writeReady: false,
    });
    expect(plan.legs?.map((leg) => [leg.action, leg.settles, leg.encoding])).toEqual([
      ['approve', false, 'evm-transaction-request'],
      ['deposit', true, 'evm-transaction-request'],
    ]);
    const stored = await t.db.plan.findUnique({
      where: { id: plan.planId ?? '' },
      include: { legs: true },
    });
    expect(stored).toMatchObject({ status: 'prepared', amountMicros: 25_000_000n, feeMicros: 0n });
    expect(stored?.legs).toHaveLength(2);
  });

  it('accepts opportunityId and the form- alias for the same venue', async () => {
    const list = await request(t.app).get('/api/v1/svc/strategies/morpho').expect(200);
    for (const body of [
      { opportunityId: list.body.opportunityId },
      { strategyId: 'form-morpho' },
    ]) {
      const plan = PlanDocument.parse(
        (await prepare('withdraw', { ...body, amountMicros: '1000000', owner: EVM_OWNER })).body,
      );
      expect(plan).toMatchObject({ status: 'prepared', venueId: 'morpho', kind: 'withdraw' });
    }
  });

  it('echoes strategyId as the bare venue id whichever id asked for the plan (SPEC)', async () => {
    const list = await request(t.app).get('/api/v1/svc/strategies/morpho').expect(200);
    for (const kind of ['deposit', 'withdraw'] as const) {
      for (const body of [
        { opportunityId: list.body.opportunityId },
        { strategyId: 'form-morpho' },
      ]) {
        const prepared = (
          await prepare(kind, { ...body, amountMicros: '1000000', owner: EVM_OWNER }).expect(200)
        ).body;
        expect(prepared).toMatchObject({
          strategyId: 'morpho',
          opportunityId: list.body.opportunityId,
        });
        const stored = await request(t.app)
          .get(`/api/v1/svc/plans/${String(prepared.planId)}`)
          .expect(200);
        expect(stored.body.strategyId).toBe('morpho');
      }
    }
  });

  it('prepares a Solana venue deposit with a recent blockhash from the RPC', async () => {
    const owner = Keypair.generate();
    const plan = PlanDocument.parse(
      (
        await prepare('deposit', {
          strategyId: 'kamino',
          amountMicros: '5000000',
          owner: owner.publicKey.toBase58(),
        }).expect(200)
      ).body,
    );
    expect(plan.status).toBe('prepared');
    const leg = plan.legs?.[0];
    expect(leg?.encoding).toBe('solana-v0-base64');
    const tx = VersionedTransaction.deserialize(Buffer.from(String(leg?.transaction), 'base64'));
    expect(tx.message.staticAccountKeys[0]?.toBase58()).toBe(owner.publicKey.toBase58());
    expect(tx.message.recentBlockhash).toBe(solana.latestBlockhash());
  });

  it.each([
    [{ strategyId: 'morpho', amountMicros: '5000000' }, 'owner_missing'],
    [{ strategyId: 'morpho', amountMicros: '5000000', owner: 'not-an-address' }, 'owner_malformed'],
    [{ strategyId: 'morpho', amountMicros: '999999', owner: EVM_OWNER }, 'amount_below_minimum'],
    [{ strategyId: 'aave-v3', amountMicros: '5000000', owner: EVM_OWNER }, 'venue_not_configured'],
    [{ strategyId: 'drift', amountMicros: '5000000', owner: key() }, 'venue_not_ready'],
    [{ strategyId: 'marginfi', amountMicros: '5000000', owner: key() }, 'venue_not_configured'],
    [{ strategyId: 'kamino', amountMicros: '999999', owner: key() }, 'amount_below_minimum'],
  ])('blocks %j with %s (HTTP 200, stored)', async (body, code) => {
    const plan = PlanDocument.parse((await prepare('deposit', body).expect(200)).body);
    expect(plan).toMatchObject({ status: 'blocked', submitted: false, ownerMustSign: false });
    expect(plan.legs).toBeUndefined();
    expect(plan.blockers?.map((blocker) => blocker.code)).toContain(code);
    expect(await t.db.plan.count({ where: { id: plan.planId ?? '' } })).toBe(1);
  });

  it('a kamino plan missing klend ids is blocked naming each missing setting', async () => {
    const partial = await startTestApp({
      SVC_SOLANA_RPC_URL: solana.rpcUrl,
      SVC_SOLANA_PROGRAM_ID: key(),
      SVC_SOLANA_YIELD_ROUTER: key(),
      SVC_SOLANA_ADAPTER_REGISTRY: key(),
      SVC_VENUE_IDS: JSON.stringify({ kamino: { klendProgram: key(), reserve: key() } }),
    });
    try {
      const res = await request(partial.app)
        .post('/api/v1/svc/strategies/deposit/plan')
        .send({ strategyId: 'kamino', amountMicros: '5000000', owner: key() })
        .expect(200);
      expect(res.body.status).toBe('blocked');
      const text = JSON.stringify(res.body.blockers);
      for (const name of ['lendingMarket', 'reserveLiquiditySupply', 'reserveCollateralMint']) {
        expect(text).toContain(name);
      }
      expect(res.body.blockers.map((blocker: { code: string }) => blocker.code)).toContain(
        'venue_not_configured',
      );
    } finally {
      await partial.close();
    }
  });

  it('a Solana plan without a reachable RPC is blocked rpc_unavailable, never a made-up blockhash', async () => {
    const offline = await startTestApp({
      SVC_SOLANA_RPC_URL: 'http://127.0.0.1:9',
      SVC_RPC_TIMEOUT_MS: '300',
      SVC_SOLANA_PROGRAM_ID: key(),
      SVC_SOLANA_YIELD_ROUTER: key(),
      SVC_SOLANA_ADAPTER_REGISTRY: key(),
      SVC_VENUE_IDS: JSON.stringify({
        kamino: {
          klendProgram: key(),
          lendingMarket: key(),
          reserve: key(),
          reserveLiquiditySupply: key(),
          reserveCollateralMint: key(),
        },
      }),
    });
    try {
      const res = await request(offline.app)
        .post('/api/v1/svc/strategies/deposit/plan')
        .send({ strategyId: 'kamino', amountMicros: '5000000', owner: key() })
        .expect(200);
      expect(res.body.blockers.map((blocker: { code: string }) => blocker.code)).toEqual([
        'rpc_unavailable',
      ]);
    } finally {
      await offline.close();
    }
  });

  it.each([
    [{ strategyId: 'nope', amountMicros: '1' }, 404, 'strategy_unknown', 'body.strategyId'],
    [
      { opportunityId: 'svcop00', amountMicros: '1' },
      404,
      'strategy_unknown',
      'body.opportunityId',
    ],
    [{ amountMicros: '1' }, 400, 'BAD_REQUEST', 'body.opportunityId'],
    [{ strategyId: 'morpho', amountMicros: '1.5' }, 400, 'BAD_REQUEST', 'body.amountMicros'],
    [{ strategyId: 'morpho', amountMicros: '-1' }, 400, 'BAD_REQUEST', 'body.amountMicros'],
    [
      { strategyId: 'morpho', amountMicros: '99999999999999999999' },
      400,
      'BAD_REQUEST',
      'body.amountMicros',
    ],
    [
      { strategyId: 'morpho', opportunityId: 'kamino', amountMicros: '1' },
      400,
      'BAD_REQUEST',
      'body.strategyId',
    ],
    [
      { strategyId: 'morpho', amountMicros: '1', privateKey: 'x' },
      400,
      'KEY_MATERIAL_REFUSED',
      'body.privateKey',
    ],
  ])('refuses %j with %i %s naming %s', async (body, status, code, field) => {
    const res = await prepare('deposit', body).expect(status);
    expect(res.body).toMatchObject({ code, field });
    expect(JSON.stringify(res.body)).not.toContain('"x"');
  });
});
