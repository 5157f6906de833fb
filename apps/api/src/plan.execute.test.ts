import request from 'supertest';
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import pino from 'pino';
import type { SolanaBed, SolanaJupiterLend } from '@yieldrouter/chain-beds/solana';
import {
  deployJupiterLend,
  deployYieldRouter,
  startSolanaBed,
} from '@yieldrouter/chain-beds/solana';
import { ExecuteResult, PlanDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { freshSolanaKey, solanaBedSettings } from './testing/solanaBedSettings';
import { startTestApp } from './testing/startTestApp';

// POST /svc/strategies/deposit/execute end to end on the local SVM: the owner signs a prepared
// leg, the API checks the bytes against the plan and broadcasts them through the Solana adapter
// to the bed, the leg carries the signature the chain returned, and settlement credits it.

const key = freshSolanaKey;
const ownerKey = `owner-all-${bs58.encode(Keypair.generate().publicKey.toBytes()).slice(0, 12)}`;
const logLines: string[] = [];

let solana: SolanaBed;
let jupiter: SolanaJupiterLend;
let on: TestApp;
let off: TestApp;
beforeAll(async () => {
  solana = await startSolanaBed();
  jupiter = deployJupiterLend(solana);
  const env = {
    ...solanaBedSettings(solana, deployYieldRouter(solana)),
    SVC_VENUE_IDS: JSON.stringify({
      'jupiter-lend': jupiter.ids,
      kamino: {
        klendProgram: key(),
        lendingMarket: key(),
        reserve: key(),
        reserveLiquiditySupply: key(),
        reserveCollateralMint: key(),
      },
    }),
    SVC_API_KEYS: JSON.stringify([{ key: ownerKey, role: 'owner', wallets: ['*'] }]),
  };
  const logger = pino({ level: 'trace' }, { write: (line: string) => logLines.push(line) });
  [on, off] = await Promise.all([
    startTestApp(
      { ...env, SVC_SOLANA_EXECUTION_ENABLED: 'true', SVC_SOLANA_BROADCAST_ENABLED: 'true' },
      { logger },
    ),
    startTestApp({ ...env, SVC_SOLANA_EXECUTION_ENABLED: 'true' }),
  ]);
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
  await solana?.stop();
});

const execute = (body: object, app = on) =>
  request(app.app).post('/api/v1/svc/strategies/deposit/execute').send(body);
const getPlan = (planId: string, app = on) => request(app.app).get(`/api/v1/svc/plans/${planId}`);

/** A funded owner with a prepared route plan (one Solana leg into the router). */
async function routePlan(amountMicros = '2000000', app = on, fund = 10_000_000n) {
  const owner = solana.createFundedKeypair();
  if (fund > 0n) solana.mintUsdc(owner.publicKey, fund);
  const res = await request(app.app)
    .post(`/api/v1/wallets/${owner.publicKey.toBase58()}/route`)
    .set('X-API-Key', ownerKey)
    .send({ amountMicros, token: 'USDC', chain: 'solana' })
    .expect(200);
  const plan = PlanDocument.parse(res.body);
  const leg = plan.legs?.[0];
  if (!plan.planId || !leg) throw new Error(JSON.stringify(res.body));
  return { owner, planId: plan.planId, leg };
}

/** What the owner's wallet does: deserialize the leg, sign, hand back base64 wire bytes. */
function sign(leg: { transaction: unknown }, owner: Keypair, blockhash?: string) {
  const tx = VersionedTransaction.deserialize(Buffer.from(String(leg.transaction), 'base64'));
  if (blockhash) tx.message.recentBlockhash = blockhash;
  tx.sign([owner]);
  return {
    signedTransaction: Buffer.from(tx.serialize()).toString('base64'),
    signature: bs58.encode(tx.signatures[0] as Uint8Array),
  };
}

describe('execute: broadcast on (Solana, local SVM)', () => {
  it('broadcasts the owner-signed leg, returns the real signature and marks the leg submitted', async () => {
    const { owner, planId, leg } = await routePlan('2000000');
    const { signedTransaction, signature } = sign(leg, owner);

    const res = await execute({ planId, legIndex: 0, signedTransaction }).expect(200);
    const result = ExecuteResult.parse(res.body);
    expect(result).toMatchObject({ planId, txId: signature, replay: false, submitted: true });
    expect(result.legs[0]).toMatchObject({ status: 'submitted', txId: signature });
    // The chain ran it: the signature is the SVM's, and the USDC left the owner.
    expect(solana.transaction(signature)?.err).toBeNull();
    expect(solana.usdcBalance(owner.publicKey)).toBe(8_000_000n);

    // The same bytes again: a replay, nothing sent twice.
    const again = ExecuteResult.parse(
      (await execute({ planId, signedTransaction }).expect(200)).body,
    );
    expect(again).toMatchObject({ txId: signature, replay: true });
    expect(solana.usdcBalance(owner.publicKey)).toBe(8_000_000n);

    // Settlement from the receipt, then the stored plan shows the settled amount.
    await request(on.app)
      .post(`/api/v1/svc/plans/${planId}/legs/0/settle`)
      .set('X-API-Key', ownerKey)
      .send({ txId: signature })
      .expect(200);
    const stored = StoredPlanDocument.parse((await getPlan(planId).expect(200)).body);
    expect(stored).toMatchObject({ planId, kind: 'route', status: 'prepared', submitted: true });
    expect(stored.legs[0]).toMatchObject({
      status: 'confirmed',
      txId: signature,
      settledAmountMicros: '2000000',
      failureReason: null,
    });
  });

  it('another signature for a leg that already has one is 409 SETTLEMENT_CONFLICT', async () => {
    const { owner, planId, leg } = await routePlan('1000000');
    await execute({ planId, signedTransaction: sign(leg, owner).signedTransaction }).expect(200);
    // The same message under another blockhash: it checks out, but the leg is taken.
    const other = sign(leg, owner, bs58.encode(Buffer.alloc(32, 9)));
    const res = await execute({ planId, signedTransaction: other.signedTransaction }).expect(409);
    expect(res.body).toMatchObject({
      code: 'SETTLEMENT_CONFLICT',
      field: 'body.signedTransaction',
    });
  });

  it('a Solana venue deposit plan, signed by the owner, goes to the SVM; its refusal is 422 and nothing is recorded', async () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, 5_000_000n);
    const plan = PlanDocument.parse(
      (
        await request(on.app)
          .post('/api/v1/svc/strategies/deposit/plan')
          .send({
            strategyId: 'kamino',
            amountMicros: '5000000',
            owner: owner.publicKey.toBase58(),
          })
          .expect(200)
      ).body,
    );
    expect(plan).toMatchObject({
      status: 'prepared',
      executionMode: 'broadcast',
      writeReady: true,
    });
    const leg = plan.legs?.[0];
    if (!plan.planId || !leg) throw new Error('no leg');
    // The router program runs in the bed, but this venue's ids are made up (its receipt mint
    // does not exist): the SVM refuses the leg.
    const res = await execute({
      planId: plan.planId,
      signedTransaction: sign(leg, owner).signedTransaction,
    }).expect(422);
    expect(res.body.code).toBe('BROADCAST_REJECTED');
    expect(res.body.message).toMatch(/^solana: the chain refused the transaction: /);
    expect(res.body.message).toContain('IncorrectProgramId');
    const stored = StoredPlanDocument.parse((await getPlan(plan.planId).expect(200)).body);
    expect(stored).toMatchObject({ submitted: false, kind: 'deposit', strategyId: 'kamino' });
    expect(stored.legs[0]).toMatchObject({ status: 'unsigned', txId: null });
    expect(solana.usdcBalance(owner.publicKey)).toBe(5_000_000n);
  });

  it('a transaction the chain refuses (more USDC than the owner holds) is 422 and records nothing', async () => {
    const { owner, planId, leg } = await routePlan('3000000', on, 1_000_000n);
    const res = await execute({ planId, signedTransaction: sign(leg, owner).signedTransaction });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('BROADCAST_REJECTED');
    const stored = StoredPlanDocument.parse((await getPlan(planId).expect(200)).body);
    expect(stored).toMatchObject({ submitted: false, legs: [{ status: 'unsigned', txId: null }] });
  });
});

describe('execute: bytes that are not the plan leg', () => {
  it('another plan of the same owner, an unsigned leg or a stranger are SIGNED_TRANSACTION_MISMATCH', async () => {
    const { owner, planId, leg } = await routePlan('1000000');
    const other = await routePlan('1500000');
    const forged = VersionedTransaction.deserialize(Buffer.from(String(leg.transaction), 'base64'));
    forged.addSignature(owner.publicKey, Keypair.generate().secretKey.subarray(0, 64));
    const cases = [
      sign(other.leg, other.owner).signedTransaction,
      String(leg.transaction),
      Buffer.from(forged.serialize()).toString('base64'),
    ];
    for (const signedTransaction of cases) {
      const res = await execute({ planId, signedTransaction }).expect(400);
      expect(res.body).toMatchObject({
        code: 'SIGNED_TRANSACTION_MISMATCH',
        field: 'body.signedTransaction',
      });
    }
    // Same owner, another plan's bytes: refused too, and both legs stay untouched.
    const mine = await routePlan('1000000');
    const theirs = sign(leg, owner).signedTransaction;
    await execute({ planId: mine.planId, signedTransaction: theirs }).expect(400);
    expect(solana.usdcBalance(owner.publicKey)).toBe(10_000_000n);
  });

  it('bytes that are no Solana transaction are 400 BAD_REQUEST naming the field', async () => {
    const { planId } = await routePlan('1000000');
    for (const signedTransaction of ['not base64!', Buffer.from('hello').toString('base64')]) {
      const res = await execute({ planId, signedTransaction }).expect(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.signedTransaction' });
    }
  });

  it('unknown plan or leg → 404; malformed ids → 400', async () => {
    const { planId, leg, owner } = await routePlan('1000000');
    const { signedTransaction } = sign(leg, owner);
    const unknown = `plan_${'0'.repeat(32)}`;
    expect((await execute({ planId: unknown, signedTransaction }).expect(404)).body).toMatchObject({
      code: 'PLAN_NOT_FOUND',
      field: 'body.planId',
    });
    expect((await execute({ planId, legIndex: 3, signedTransaction }).expect(404)).body.field).toBe(
      'body.legIndex',
    );
    expect((await execute({ planId: 'x', signedTransaction }).expect(400)).body.field).toBe(
      'body.planId',
    );
    expect(
      (await execute({ planId, legIndex: 1.5, signedTransaction }).expect(400)).body.field,
    ).toBe('body.legIndex');
  });
});

describe('execute: keys and seed phrases are refused unread', () => {
  const planId = `plan_${'a'.repeat(32)}`;
  const secret = Keypair.generate().secretKey;
  const phrase = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

  it.each([
    ['a base58 secret key', { signedTransaction: bs58.encode(secret) }, 'body.signedTransaction'],
    [
      'a JSON byte array',
      { signedTransaction: JSON.stringify([...secret]) },
      'body.signedTransaction',
    ],
    ['a raw byte array', { signedTransaction: [...secret] }, 'body.signedTransaction'],
    ['a 32-byte hex key', { signedTransaction: `0x${'ab'.repeat(32)}` }, 'body.signedTransaction'],
    ['a seed phrase', { signedTransaction: phrase }, 'body.signedTransaction'],
    [
      'a key among the signatures',
      { signedTransaction: 'AAAA', signatures: [bs58.encode(secret)] },
      'body.signatures[0]',
    ],
    [
      'a privateKey field',
      { signedTransaction: 'AAAA', privateKey: 'anything' },
      'body.privateKey',
    ],
  ])('%s → 400 KEY_MATERIAL_REFUSED, never echoed or logged', async (_name, body, field) => {
    logLines.length = 0;
    const res = await execute({ planId, ...body }).expect(400);
    expect(res.body).toMatchObject({ code: 'KEY_MATERIAL_REFUSED', field });
    const sent = JSON.stringify(body);
    const secrets = [
      bs58.encode(secret),
      phrase,
      'ab'.repeat(32),
      JSON.stringify([...secret]).slice(1, 40),
    ];
    for (const value of secrets.filter((entry) => sent.includes(entry))) {
      expect(JSON.stringify(res.body)).not.toContain(value);
      expect(logLines.join('\n')).not.toContain(value);
    }
    expect(logLines.length).toBeGreaterThan(0); // the access log line, without the body
  });
});

describe('execute: broadcast off', () => {
  it('answers 422 BROADCAST_DISABLED and sends nothing', async () => {
    const { owner, planId, leg } = await routePlan('1000000', off);
    const res = await execute(
      { planId, signedTransaction: sign(leg, owner).signedTransaction },
      off,
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('BROADCAST_DISABLED');
    expect(res.body.message).toContain(`/api/v1/svc/plans/${planId}/legs/0/settle`);
    expect(solana.usdcBalance(owner.publicKey)).toBe(10_000_000n);
    const status = await request(off.app).get('/api/v1/svc/status').expect(200);
    expect(status.body.executionMode).toBe('owner_sign_prepare');
  });
});

describe('GET /svc/plans/{planId}', () => {
  it('serves a prepared plan as it was prepared, with each leg unsigned', async () => {
    // A jupiter-lend deposit (its stand-in on the bed) is built without reading the venue.
    const owner = Keypair.generate().publicKey.toBase58();
    const prepared = PlanDocument.parse(
      (
        await request(on.app)
          .post('/api/v1/svc/strategies/deposit/plan')
          .send({ strategyId: 'form-jupiter-lend', amountMicros: '1000000', owner })
          .expect(200)
      ).body,
    );
    const stored = StoredPlanDocument.parse(
      (await getPlan(prepared.planId ?? '').expect(200)).body,
    );
    expect(stored).toMatchObject({
      planId: prepared.planId,
      kind: 'deposit',
      status: 'prepared',
      submitted: false,
      ownerMustSign: true,
      feeMicros: '0',
      strategyId: 'jupiter-lend',
      opportunityId: prepared.opportunityId,
      venueId: 'jupiter-lend',
      chain: 'solana',
      amountMicros: '1000000',
      owner,
      blockers: [],
      createdAt: prepared.createdAt,
    });
    expect(stored.legs).toEqual(
      prepared.legs?.map((leg) =>
        expect.objectContaining({
          ...leg,
          settledAmountMicros: null,
          failureReason: null,
        }),
      ),
    );
  });

  it('serves a blocked plan with its blockers, and 404 for an unknown id', async () => {
    const blocked = PlanDocument.parse(
      (
        await request(on.app)
          .post('/api/v1/svc/strategies/deposit/plan')
          .send({ strategyId: 'kamino', amountMicros: '5000000' })
          .expect(200)
      ).body,
    );
    const stored = StoredPlanDocument.parse((await getPlan(blocked.planId ?? '').expect(200)).body);
    expect(stored).toMatchObject({ status: 'blocked', ownerMustSign: false, legs: [] });
    expect(stored.blockers.map((blocker) => blocker.code)).toEqual(
      blocked.blockers?.map((blocker) => blocker.code),
    );
    const res = await getPlan(`plan_${'f'.repeat(32)}`).expect(404);
    expect(res.body).toMatchObject({ code: 'PLAN_NOT_FOUND', field: 'path.planId' });
  });
});
