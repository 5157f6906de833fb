import { summarizeResult } from './toolResult';

// The summary beside a result never says money moved unless the answer says submitted: true.
describe('summarizeResult', () => {
  it('a prepared plan: nothing moved, the owner signs', () => {
    const text = summarizeResult('prepareDepositPlan', {
      planId: 'plan_1',
      status: 'prepared',
      submitted: false,
      ownerMustSign: true,
    });
    expect(text).toMatch(/prepared plan plan_1\. No money has moved/);
    expect(text).toMatch(/owner must sign/);
  });

  it('a blocked plan names its blockers', () => {
    const text = summarizeResult('prepareDepositPlan', {
      status: 'blocked',
      submitted: false,
      ownerMustSign: false,
      blockers: [{ code: 'OWNER_REQUIRED', message: 'owner is missing' }],
    });
    expect(text).toMatch(/BLOCKED/);
    expect(text).toMatch(/OWNER_REQUIRED \(owner is missing\)/);
    expect(text).toMatch(/no money moved/);
  });

  it('submitted only when the answer says so', () => {
    expect(summarizeResult('executeDeposit', { submitted: true })).toMatch(/broadcast/);
    for (const body of [{ submitted: false }, { prepared: true }, { count: 2 }, [1], null]) {
      expect(summarizeResult('x', body)).not.toMatch(/broadcast/);
    }
  });
});
