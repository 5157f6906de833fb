import { normalizeOpportunityId } from './opportunities';

describe('normalizeOpportunityId', () => {
  it('strips the legacy form- prefix once', () => {
    expect(normalizeOpportunityId('form-x')).toBe('x');
    expect(normalizeOpportunityId('form-form-x')).toBe('form-x');
  });

  it('leaves other ids alone', () => {
    expect(normalizeOpportunityId('navi-usdc')).toBe('navi-usdc');
    expect(normalizeOpportunityId('svcop1a2b')).toBe('svcop1a2b');
    expect(normalizeOpportunityId('platform-x')).toBe('platform-x');
  });
});
