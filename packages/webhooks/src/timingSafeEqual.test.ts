import { timingSafeEqual } from './timingSafeEqual';

describe('timingSafeEqual', () => {
  it('is true only for identical strings', () => {
    expect(timingSafeEqual('', '')).toBe(true);
    expect(timingSafeEqual('abc123', 'abc123')).toBe(true);
    expect(timingSafeEqual('abc123', 'abc124')).toBe(false);
    expect(timingSafeEqual('xbc123', 'abc123')).toBe(false);
    expect(timingSafeEqual('abc', 'abc1')).toBe(false);
    expect(timingSafeEqual('abc1', 'abc')).toBe(false);
  });
});
