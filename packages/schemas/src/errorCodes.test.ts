import { BlockerCode, CODE_RULE, ErrorCode } from './errors';

describe('error codes and blocker codes', () => {
  it('follow the published rule: HTTP errors upper case, blockers lower snake_case', () => {
    const lowerErrors = ErrorCode.options.filter((code) => !/^[A-Z][A-Z0-9_]*$/.test(code));
    expect(lowerErrors).toEqual(['strategy_unknown']);
    expect(BlockerCode.options.filter((code) => !/^[a-z][a-z0-9_]*$/.test(code))).toEqual([]);
    expect(CODE_RULE).toContain('strategy_unknown');
  });
});
