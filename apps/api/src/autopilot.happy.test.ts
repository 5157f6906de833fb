import {
  AutopilotDecision,
  AutopilotHistory,
  AutopilotState,
  AutopilotTickResult,
  AuditTrailDocument,
  StoredPlanDocument,
  StrategyList,
} from '@yieldrouter/schemas';
import { useAutopilotApp } from './testing/useAutopilotApp';

// Issue 19, part 3: the autopilot's seven routes on real PostgreSQL, with Solana on the fake
// chain (kamino and save ready), 30-day means from stored samples and a real stake.

const ap = useAutopilotApp(3);
const { keys } = ap;
const [wallet, switcher, idle] = ap.wallets as [string, string, string];
const base = (address: string) => `/wallets/${address}/autopilot`;

beforeAll(async () => {
  await ap.setMean('kamino', 500);
  await ap.setMean('save', 1199);
  await ap.stake(wallet, 5_000_000n);
  await ap.stake(switcher, 2_000_000n);
});

describe('enable, state and disable', () => {
  it('a wallet starts with no policy, no next tick and no decision', async () => {
    const state = AutopilotState.parse(
      (await ap.api('get', base(idle), keys.agent).expect(200)).body,
    );
    expect(state).toMatchObject({ policy: null, nextTick: null, lastDecision: null });
  });

  it('enable stores the policy with its defaults, due at once; the incumbent is the stake', async () => {
    const enabled = await ap
      .api('post', `${base(wallet)}/enable`, keys.owner, { chain: 'solana' })
      .set('Idempotency-Key', 'enable-once')
      .expect(200);
    const state = AutopilotState.parse(enabled.body);
    expect(state.policy).toMatchObject({
      strategyId: 'svc-autopilot-top-30d-monthly',
      chain: 'solana',
      enabled: true,
      rebalanceMinDeltaBps: 700,
      cadence: 'monthly',
      venueAllowlist: [],
      goal: 'max_apy_30d',
    });
    expect(state.incumbent).toMatchObject({ venueId: 'kamino', stakedMicros: '5000000' });
    expect(Date.parse(state.nextTick?.dueAt ?? '')).toBeLessThanOrEqual(Date.now());
    expect(state.nextTick?.period).toMatch(/^monthly:\d{4}-\d{2}$/);

    // The same Idempotency-Key answers the first outcome again.
    const replay = await ap
      .api('post', `${base(wallet)}/enable`, keys.owner, { chain: 'solana' })
      .set('Idempotency-Key', 'enable-once')
      .expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(enabled.body);

    const trail = AuditTrailDocument.parse(
      (await ap.api('get', `/wallets/${wallet}/audit`, keys.owner).expect(200)).body,
    );
    expect(trail.events.map((event) => event.operation)).toContain('enableAutopilot');
  });

  it('enable again keeps what it does not name; the allowlist becomes opportunity ids', async () => {
    const kamino = await ap.opportunityId('kamino');
    const body = (
      await ap
        .api('post', `${base(switcher)}/enable`, keys.owner, {
          chain: 'solana',
          cadence: 'daily',
          venueAllowlist: ['kamino', 'form-save'],
        })
        .expect(200)
    ).body;
    const save = await ap.opportunityId('save');
    expect(AutopilotState.parse(body).policy?.venueAllowlist).toEqual([kamino, save]);
    const again = AutopilotState.parse(
      (
        await ap
          .api('post', `${base(switcher)}/enable`, keys.owner, { rebalanceMinDeltaBps: 600 })
          .expect(200)
      ).body,
    );
    expect(again.policy).toMatchObject({
      cadence: 'daily',
      rebalanceMinDeltaBps: 600,
      venueAllowlist: [kamino, save],
    });
  });
});

describe('preview and decide move nothing and are recorded', () => {
  it('+6.99 pp holds under the policy; a preview with a lower threshold switches', async () => {
    const decided = AutopilotDecision.parse(
      (await ap.api('post', `${base(wallet)}/decide`, keys.agent, {}).expect(200)).body,
    );
    expect(decided).toMatchObject({
      kind: 'decide',
      period: null,
      chain: 'solana',
      outcome: 'hold',
      reason: 'below_threshold',
      deltaBps: 699,
      thresholdBps: 700,
      incumbent: { venueId: 'kamino', apyMean30dBps: 500, verdict: 'eligible' },
      challenger: { venueId: 'save', apyMean30dBps: 1199, apyMean30dSamples: 5, rank: 1 },
      planId: null,
      withinChainOnly: true,
      crossChainRebalance: false,
      bridge: null,
    });
    // Every candidate of the chain is in the record with its verdict; drift is only listed and
    // marginfi has no ids on this bed.
    for (const listed of ['drift', 'marginfi']) {
      expect(decided.candidates.find((entry) => entry.venueId === listed)).toMatchObject({
        ready: false,
        verdict: 'not_ready',
        rank: null,
      });
    }

    const previewed = AutopilotDecision.parse(
      (
        await ap
          .api('post', `${base(wallet)}/preview`, keys.agent, { rebalanceMinDeltaBps: 699 })
          .expect(200)
      ).body,
    );
    expect(previewed).toMatchObject({
      kind: 'preview',
      outcome: 'switch',
      reason: 'challenger_clears_threshold',
      planId: null,
      policy: { rebalanceMinDeltaBps: 699 },
    });
    const staked = AutopilotState.parse(
      (await ap.api('get', base(wallet), keys.agent).expect(200)).body,
    );
    expect(staked.incumbent?.stakedMicros).toBe('5000000');
    expect(staked.lastDecision?.decisionId).toBe(previewed.decisionId);
  });

  it('a preview needs no policy when it names the chain (nothing staked: no_position)', async () => {
    const previewed = AutopilotDecision.parse(
      (await ap.api('post', `${base(idle)}/preview`, keys.owner, { chain: 'solana' }).expect(200))
        .body,
    );
    expect(previewed).toMatchObject({ outcome: 'hold', reason: 'no_position', incumbent: null });
    expect(previewed.challenger?.venueId).toBe('save');
  });
});

describe('tick', () => {
  it('10 concurrent ticks give one decision: nine answer it replayed', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        ap.api('post', `${base(wallet)}/tick`, index % 2 ? keys.owner : keys.keeper, {}),
      ),
    );
    const ticks = results.map((result) => {
      expect(result.status).toBe(200);
      return AutopilotTickResult.parse(result.body);
    });
    expect(ticks.filter((tick) => !tick.replayed)).toHaveLength(1);
    expect(new Set(ticks.map((tick) => tick.decision.decisionId)).size).toBe(1);
    expect(ticks[0]?.decision).toMatchObject({ kind: 'tick', outcome: 'hold', planId: null });
    const stored = await ap.t().db.autopilotDecision.count({
      where: { wallet, kind: 'tick' },
    });
    expect(stored).toBe(1);
    const state = AutopilotState.parse(
      (await ap.api('get', base(wallet), keys.owner).expect(200)).body,
    );
    expect(Date.parse(state.nextTick?.dueAt ?? '')).toBeGreaterThan(Date.now());
  });

  it('a switch prepares the rebalance plan (withdraw kamino, deposit save) for the owner', async () => {
    // switcher: threshold 600 and the +6.99 pp gap.
    const tick = AutopilotTickResult.parse(
      (await ap.api('post', `${base(switcher)}/tick`, keys.agent, {}).expect(200)).body,
    );
    expect(tick.decision).toMatchObject({
      outcome: 'switch',
      reason: 'challenger_clears_threshold',
      planId: expect.stringMatching(/^plan_[0-9a-f]{32}$/),
      period: expect.stringMatching(/^daily:/),
      incumbent: { venueId: 'kamino', stakedMicros: '2000000' },
      challenger: { venueId: 'save' },
    });
    const plan = StoredPlanDocument.parse(
      (await ap.api('get', `/svc/plans/${tick.decision.planId}`, keys.owner).expect(200)).body,
    );
    expect(plan).toMatchObject({
      status: 'prepared',
      ownerMustSign: true,
      amountMicros: '2000000',
    });
    // The owner's staked money has not moved: only signed legs move it.
    const state = AutopilotState.parse(
      (await ap.api('get', base(switcher), keys.owner).expect(200)).body,
    );
    expect(state.incumbent).toMatchObject({ venueId: 'kamino', stakedMicros: '2000000' });
  });

  it("the wallet's guardrails: a challenger they keep out never wins, and the record says so", async () => {
    const kamino = await ap.opportunityId('kamino');
    await ap
      .api('put', `/wallets/${switcher}/guardrails`, keys.owner, { venueAllowlist: [kamino] })
      .expect(200);
    const decided = AutopilotDecision.parse(
      (await ap.api('post', `${base(switcher)}/decide`, keys.owner, {}).expect(200)).body,
    );
    expect(decided).toMatchObject({ outcome: 'hold', reason: 'incumbent_leads', challenger: null });
    expect(decided.candidates.find((entry) => entry.venueId === 'save')).toMatchObject({
      verdict: 'guardrail_blocked',
      guardrailBlockers: ['guardrail_venue_not_allowed'],
      rank: null,
    });
  });
});

describe('history and the featured strategy', () => {
  it('history lists every decision newest first, in pages', async () => {
    const first = AutopilotHistory.parse(
      (await ap.api('get', `${base(wallet)}/history?limit=2`, keys.agent).expect(200)).body,
    );
    expect(first.decisions.map((entry) => entry.kind)).toEqual(['tick', 'preview']);
    expect(first.nextCursor).not.toBeNull();
    const rest = AutopilotHistory.parse(
      (
        await ap
          .api('get', `${base(wallet)}/history?limit=2&cursor=${first.nextCursor}`, keys.agent)
          .expect(200)
      ).body,
    );
    expect(rest.decisions.map((entry) => entry.kind)).toEqual(['decide']);
    expect(rest.nextCursor).toBeNull();
  });

  it('disable keeps the policy and the position; a tick is then refused, nothing stored', async () => {
    const state = AutopilotState.parse(
      (await ap.api('post', `${base(wallet)}/disable`, keys.owner, {}).expect(200)).body,
    );
    expect(state).toMatchObject({
      policy: { enabled: false, chain: 'solana' },
      nextTick: null,
      incumbent: { venueId: 'kamino', stakedMicros: '5000000' },
    });
    const refused = await ap.api('post', `${base(wallet)}/tick`, keys.owner, {}).expect(409);
    expect(refused.body.code).toBe('AUTOPILOT_DISABLED');
    const history = AutopilotHistory.parse(
      (await ap.api('get', `${base(wallet)}/history`, keys.owner).expect(200)).body,
    );
    expect(history.count).toBe(3);
  });

  it('GET /svc/strategies features the rule with a leader per autopilot chain', async () => {
    const list = StrategyList.parse(
      (await ap.api('get', '/svc/strategies', keys.agent).expect(200)).body,
    );
    expect(list.featured).toMatchObject({
      strategyId: 'svc-autopilot-top-30d-monthly',
      switchThresholdBps: 700,
      chains: ['sui', 'solana'],
      currentLeader: 'save',
    });
    expect(list.featured.leaders).toContainEqual({
      chain: 'solana',
      opportunityId: await ap.opportunityId('save'),
      venueId: 'save',
      apyMean30dBps: 1199,
    });
  });
});
