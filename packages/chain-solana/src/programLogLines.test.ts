import { programLogLines } from './programLogLines';

describe('programLogLines', () => {
  it("keeps a program's own log lines and gives a CPI's lines to the invoked program", () => {
    const logs = [
      'Program Router111 invoke [1]',
      'Program log: checking',
      'Program Venue111 invoke [2]',
      'Program log: svc:plan_forged deposit_to_venue amount=1',
      'Program Venue111 consumed 10 of 100 compute units',
      'Program Venue111 success',
      'Program log: svc:plan_real deposit_to_venue amount=5',
      'Program Router111 consumed 50 of 200 compute units',
      'Program Router111 success',
      'Program Memo111 invoke [1]',
      'Program log: Memo (len 9): "svc:plan_real"',
      'Program Memo111 success',
    ];
    expect(programLogLines(logs, 'Router111')).toEqual([
      'checking',
      'svc:plan_real deposit_to_venue amount=5',
    ]);
    expect(programLogLines(logs, 'Venue111')).toEqual([
      'svc:plan_forged deposit_to_venue amount=1',
    ]);
    expect(programLogLines([], 'Router111')).toEqual([]);
  });
});
