import request from 'supertest';
import { GuardrailsDocument, PlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { SAMPLE_ADDRESSES, startTestApp, testKeys } from './testing/startTestApp';

// Guardrails per wallet: the owner writes them (audited, Idempotency-Key), agents read them;
// a bad document stores nothing; route and deposit plans they stop come back blocked, named.

let t: TestApp;
const wallet = SAMPLE_ADDRESSES.solana;
beforeAll(async () => {
  t = await startTestApp({
    SVC_API_KEYS: JSON.stringify([
      { key: testKeys.owner, role: 'owner', wallets: [wallet] },
      { key: testKeys.agent, role: 'agent', wallets: [wallet] },
    ]),
  });
});
afterAll(async () => {
  await t?.close();
});

const read = async (apiKey: string = testKeys.agent) =>
  GuardrailsDocument.parse(
    (
      await request(t.app)
        .get(`/api/v1/wallets/${wallet}/guardrails`)
        .set('X-API-Key', apiKey)
        .expect(200)
    ).body,
  );
const put = (body: unknown, apiKey: string = testKeys.owner) =>
  request(t.app)
    .put(`/api/v1/wallets/${wallet}/guardrails`)
    .set('X-API-Key', apiKey)
    .send(body as object);
const opportunityId = async (venueId: string) =>
  String(
    (await request(t.app).get(`/api/v1/svc/strategies/${venueId}`).expect(200)).body.opportunityId,
  );

describe('guardrails: read and write', () => {
  it('a wallet without guardrails has no limit, and the two constants', async () => {
    expect(await read()).toEqual({
      schemaVersion: 'svc-wallet-guardrails.v1',
      wallet,
      allowedChains: null,
      venueAllowlist: null,
      maxAllocationBps: {},
      maxPerOpportunityMicros: null,
      minNetApyBps: null,
      ownerExitAlways: true,
      agentMayWithdrawPrincipal: false,
      updatedAt: null,
    });
  });

  it('the owner replaces them (ids stored as opportunity ids); agents read; audited', async () => {
    const kamino = await opportunityId('kamino');
    const save = await opportunityId('save');
    const written = await put({
      allowedChains: ['solana', 'sui'],
      venueAllowlist: ['kamino', save],
      maxAllocationBps: { [`form-kamino`]: 6000 },
      maxPerOpportunityMicros: '50000000',
      minNetApyBps: 300,
      ownerExitAlways: true,
      agentMayWithdrawPrincipal: false,
    })
      .set('X-Request-Id', 'req-guardrails-put')
      .expect(200);
    expect(written.body).toMatchObject({
      allowedChains: ['solana', 'sui'],
      venueAllowlist: [kamino, save],
      maxAllocationBps: { [kamino]: 6000 },
      maxPerOpportunityMicros: '50000000',
      minNetApyBps: 300,
    });
    expect(await read()).toEqual(written.body);
    // PUT replaces: what is left out has no limit again.
    expect((await put({ minNetApyBps: 100 }).expect(200)).body).toMatchObject({
      allowedChains: null,
      venueAllowlist: null,
      maxAllocationBps: {},
      minNetApyBps: 100,
    });
    const audit = await request(t.app)
      .get(`/api/v1/wallets/${wallet}/audit`)
      .set('X-API-Key', testKeys.owner)
      .expect(200);
    expect(audit.body.events[1]).toMatchObject({
      operation: 'setGuardrails',
      method: 'PUT',
      requestId: 'req-guardrails-put',
      outcome: 'ok',
      actor: { role: 'owner' },
    });
  });

  it('honours Idempotency-Key: a retry replays, another body with the key is refused', async () => {
    const first = await put({ minNetApyBps: 200 }).set('Idempotency-Key', 'guard-1').expect(200);
    await put({ minNetApyBps: 250 }).expect(200);
    const replay = await put({ minNetApyBps: 200 }).set('Idempotency-Key', 'guard-1').expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    // The replay wrote nothing: the later change stands.
    expect((await read()).minNetApyBps).toBe(250);
    const reused = await put({ minNetApyBps: 1 }).set('Idempotency-Key', 'guard-1').expect(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it.each([
    [{ maxAllocationBps: { kamino: 0 } }, 400, 'body.maxAllocationBps'],
    [{ maxAllocationBps: { kamino: 10_001 } }, 400, 'body.maxAllocationBps'],
    [{ maxAllocationBps: { kamino: 12.5 } }, 400, 'body.maxAllocationBps'],
    [{ maxAllocationBps: { kamino: 5000, 'form-kamino': 4000 } }, 400, 'body.maxAllocationBps'],
    [{ maxAllocationBps: { 'no-such-venue': 5000 } }, 404, 'body.maxAllocationBps.no-such-venue'],
    [{ venueAllowlist: ['no-such-venue'] }, 404, 'body.venueAllowlist[0]'],
    [{ venueAllowlist: ['kamino', 'form-kamino'] }, 400, 'body.venueAllowlist'],
    [{ venueAllowlist: [] }, 400, 'body.venueAllowlist'],
    [{ maxPerOpportunityMicros: '-1' }, 400, 'body.maxPerOpportunityMicros'],
    [{ maxPerOpportunityMicros: '1.5' }, 400, 'body.maxPerOpportunityMicros'],
    [{ maxPerOpportunityMicros: '0' }, 400, 'body.maxPerOpportunityMicros'],
    [{ minNetApyBps: -1 }, 400, 'body.minNetApyBps'],
    [{ allowedChains: ['near'] }, 400, 'body.allowedChains'],
    [{ allowedChains: ['sui', 'sui'] }, 400, 'body.allowedChains'],
    [{ ownerExitAlways: false }, 400, 'body.ownerExitAlways'],
    [{ agentMayWithdrawPrincipal: true }, 400, 'body.agentMayWithdrawPrincipal'],
    [{ maxStake: '1' }, 400, 'body'],
  ])('%j → %i naming %s, nothing stored', async (body, status, field) => {
    const before = await read();
    const res = await put(body).expect(status);
    expect(`${res.body.field ?? ''} ${res.body.message}`).toContain(field);
    expect(await read()).toEqual(before);
  });

  it('an agent key reads but never writes them', async () => {
    const before = await read();
    const res = await put({ minNetApyBps: 0 }, testKeys.agent).expect(403);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(await read()).toEqual(before);
    await request(t.app).put(`/api/v1/wallets/${wallet}/guardrails`).send({}).expect(401);
  });
});

describe('guardrails stop route and deposit plans with named blockers', () => {
  it('a route onto a chain outside allowedChains is blocked and reserves nothing', async () => {
    await put({ allowedChains: ['sui'] }).expect(200);
    const routed = await request(t.app)
      .post(`/api/v1/wallets/${wallet}/route`)
      .set('X-API-Key', testKeys.owner)
      .send({ amountMicros: '1000000', token: 'USDC', chain: 'solana' })
      .expect(200);
    const plan = PlanDocument.parse(routed.body);
    expect(plan.status).toBe('blocked');
    expect(plan.blockers).toContainEqual(
      expect.objectContaining({
        code: 'guardrail_chain_not_allowed',
        field: 'guardrails.allowedChains',
        details: { chain: 'solana', allowedChains: 'sui' },
      }),
    );
    expect(routed.body.pendingInMicros).toBe('0');
    // The dry run says the same.
    const preview = await request(t.app)
      .post(`/api/v1/wallets/${wallet}/preview`)
      .set('X-API-Key', testKeys.agent)
      .send({ amountMicros: '1000000', chain: 'solana' })
      .expect(200);
    expect(preview.body.blockers.map((b: { code: string }) => b.code)).toContain(
      'guardrail_chain_not_allowed',
    );
    // Allowed again: the guardrail blocker is gone.
    await put({ allowedChains: ['solana'] }).expect(200);
    const again = await request(t.app)
      .post(`/api/v1/wallets/${wallet}/route`)
      .set('X-API-Key', testKeys.owner)
      .send({ amountMicros: '1000000', token: 'USDC', chain: 'solana' })
      .expect(200);
    expect(JSON.stringify(again.body.blockers ?? [])).not.toContain('guardrail_');
  });

  it("a deposit plan naming the owner checks the owner's allowlist and caps", async () => {
    await put({ venueAllowlist: ['save'], maxPerOpportunityMicros: '2000000' }).expect(200);
    const deposit = (amountMicros: string) =>
      request(t.app)
        .post('/api/v1/svc/strategies/deposit/plan')
        .send({ strategyId: 'kamino', amountMicros, owner: wallet })
        .expect(200);
    const codes = (body: PlanDocument) => (body.blockers ?? []).map((b) => b.code);
    expect(codes((await deposit('3000000')).body)).toEqual(
      expect.arrayContaining(['guardrail_venue_not_allowed', 'guardrail_max_per_opportunity']),
    );
    // A withdrawal is never stopped by a guardrail (ownerExitAlways).
    const exit = await request(t.app)
      .post('/api/v1/svc/strategies/withdraw/plan')
      .send({ strategyId: 'kamino', amountMicros: '3000000', owner: wallet })
      .expect(200);
    expect(JSON.stringify(exit.body.blockers ?? [])).not.toContain('guardrail_');
  });
});
