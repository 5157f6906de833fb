import type { AutopilotOpportunity, DecideAutopilotParameters } from './decideAutopilot';
import { decideAutopilot } from './decideAutopilot';

// Fixtures of 30-day means on one chain; catalog order is `priority`.
const venue = (
  venueId: string,
  apyMean30dBps: number | null,
  extra: Partial<AutopilotOpportunity> = {},
): AutopilotOpportunity => ({
  opportunityId: `svcop${Buffer.from(venueId).toString('hex')}`,
  venueId,
  protocol: venueId,
  chain: 'sui',
  ready: true,
  apyMean30dBps,
  apyMean30dSamples: apyMean30dBps === null ? 1 : 30,
  grossApyBps: apyMean30dBps,
  wave: 1,
  priority: 1,
  ...extra,
});

const held = (entry: AutopilotOpportunity, stakedMicros = 5_000_000n) => ({
  opportunityId: entry.opportunityId,
  venueId: entry.venueId,
  stakedMicros,
});

const decide = (
  opportunities: AutopilotOpportunity[],
  incumbent: AutopilotOpportunity | null,
  extra: Partial<DecideAutopilotParameters> = {},
) =>
  decideAutopilot({
    chain: 'sui',
    opportunities,
    venueAllowlist: [],
    thresholdBps: 700,
    incumbent: incumbent ? held(incumbent) : null,
    ...extra,
  });

describe('decideAutopilot: the 7 percentage point rule', () => {
  const navi = venue('navi', 500);

  it('+6.99 pp holds (below_threshold)', () => {
    const ruling = decide([navi, venue('scallop', 1199)], navi);
    expect(ruling).toMatchObject({ outcome: 'hold', reason: 'below_threshold', deltaBps: 699 });
    expect(ruling.challenger?.venueId).toBe('scallop');
    expect(ruling.explanation).toContain('6.99 pp');
  });

  it('+7.00 pp switches (challenger_clears_threshold)', () => {
    const ruling = decide([navi, venue('scallop', 1200)], navi);
    expect(ruling).toMatchObject({
      outcome: 'switch',
      reason: 'challenger_clears_threshold',
      deltaBps: 700,
      incumbent: { venueId: 'navi', stakedMicros: '5000000', apyMean30dBps: 500 },
    });
    expect(ruling.challenger?.venueId).toBe('scallop');
  });

  it("follows the policy's threshold (0 switches on any gain, 10000 only on +100 pp)", () => {
    expect(decide([navi, venue('scallop', 501)], navi, { thresholdBps: 0 }).outcome).toBe('switch');
    expect(decide([navi, venue('scallop', 10_499)], navi, { thresholdBps: 10_000 }).outcome).toBe(
      'hold',
    );
  });

  it('holds when the incumbent leads, naming the best challenger', () => {
    const ruling = decide([venue('scallop', 400), navi], navi);
    expect(ruling).toMatchObject({ outcome: 'hold', reason: 'incumbent_leads', deltaBps: -100 });
    expect(ruling.candidates.map((entry) => [entry.venueId, entry.rank])).toEqual([
      ['navi', 1],
      ['scallop', 2],
    ]);
  });
});

describe('decideAutopilot: who may win', () => {
  const navi = venue('navi', 500);

  it('a null mean never wins, however it would rank', () => {
    const ruling = decide([navi, venue('unrated', null)], navi);
    expect(ruling).toMatchObject({ outcome: 'hold', reason: 'incumbent_leads', challenger: null });
    expect(ruling.candidates.find((entry) => entry.venueId === 'unrated')).toMatchObject({
      verdict: 'mean_unknown',
      rank: null,
      apyMean30dSamples: 1,
    });
  });

  it('a venue that is not ready never wins, whatever its mean', () => {
    const ruling = decide([navi, venue('listed', 5000, { ready: false }), venue('b', 900)], navi);
    expect(ruling).toMatchObject({ outcome: 'hold', reason: 'below_threshold', deltaBps: 400 });
    expect(ruling.challenger?.venueId).toBe('b');
    expect(ruling.candidates.find((entry) => entry.venueId === 'listed')?.verdict).toBe(
      'not_ready',
    );
  });

  it('the allowlist is respected: an unlisted venue never wins', () => {
    const big = venue('big', 9000);
    const ruling = decide([navi, big, venue('small', 1300)], navi, {
      venueAllowlist: [navi.opportunityId, venue('small', 0).opportunityId],
    });
    expect(ruling).toMatchObject({ outcome: 'switch', deltaBps: 800 });
    expect(ruling.challenger?.venueId).toBe('small');
    expect(ruling.candidates.find((entry) => entry.venueId === 'big')).toMatchObject({
      allowlisted: false,
      verdict: 'not_allowlisted',
    });
  });

  it('a venue failing the guardrails never wins, and its blockers are recorded', () => {
    const ruling = decide([navi, venue('risky', 9000)], navi, {
      guardrailBlockers: (entry) => (entry.venueId === 'risky' ? ['guardrail_min_net_apy'] : []),
    });
    expect(ruling).toMatchObject({ outcome: 'hold', reason: 'incumbent_leads' });
    expect(ruling.candidates.find((entry) => entry.venueId === 'risky')).toMatchObject({
      verdict: 'guardrail_blocked',
      guardrailBlockers: ['guardrail_min_net_apy'],
    });
  });

  it('another chain never ranks (within one chain only)', () => {
    const ruling = decide([navi, venue('far', 9000, { chain: 'solana' })], navi);
    expect(ruling.candidates.map((entry) => entry.venueId)).toEqual(['navi']);
    expect(ruling.outcome).toBe('hold');
  });

  it('equal means rank in catalog order', () => {
    const ruling = decide(
      [venue('second', 900, { priority: 2 }), venue('first', 900, { priority: 1 }), navi],
      navi,
    );
    expect(ruling.challenger?.venueId).toBe('first');
  });
});

describe('decideAutopilot: the incumbent', () => {
  it('no position on the chain holds (no_position), naming the leader; it never deposits', () => {
    const ruling = decide([venue('navi', 500), venue('scallop', 900)], null);
    expect(ruling).toMatchObject({ outcome: 'hold', reason: 'no_position', incumbent: null });
    expect(ruling.challenger?.venueId).toBe('scallop');
  });

  it('no eligible venue at all is blocked', () => {
    expect(decide([venue('navi', null)], null)).toMatchObject({
      outcome: 'blocked',
      reason: 'no_eligible_candidate',
    });
    const navi = venue('navi', null);
    expect(decide([navi], navi)).toMatchObject({
      outcome: 'blocked',
      reason: 'no_eligible_candidate',
      incumbent: { verdict: 'mean_unknown' },
    });
  });

  it('an incumbent whose mean is unknown holds: the gap cannot be measured', () => {
    const navi = venue('navi', null);
    const ruling = decide([navi, venue('scallop', 5000)], navi);
    expect(ruling).toMatchObject({ outcome: 'hold', reason: 'incumbent_unrated', deltaBps: null });
  });

  it('an incumbent the allowlist no longer names switches to the best allowed, whatever the gap', () => {
    const navi = venue('navi', 500);
    const scallop = venue('scallop', 600);
    const ruling = decide([navi, scallop], navi, { venueAllowlist: [scallop.opportunityId] });
    expect(ruling).toMatchObject({
      outcome: 'switch',
      reason: 'incumbent_not_eligible',
      deltaBps: 100,
      incumbent: { verdict: 'not_allowlisted' },
    });
  });
});
