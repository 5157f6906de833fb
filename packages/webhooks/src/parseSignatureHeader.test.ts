import { parseSignatureHeader } from './parseSignatureHeader';

const A = 'a'.repeat(64);
const B = '0123456789abcdef'.repeat(4);

describe('parseSignatureHeader', () => {
  it('reads t and every v1', () => {
    expect(parseSignatureHeader(`t=1767225600,v1=${A},v1=${B}`)).toEqual({
      ok: true,
      timestamp: 1767225600,
      signatures: [A, B],
    });
    expect(parseSignatureHeader(`v1=${A},t=0`)).toEqual({
      ok: true,
      timestamp: 0,
      signatures: [A],
    });
  });

  it('tolerates whitespace around parts and lowercases hex', () => {
    expect(parseSignatureHeader(` t = 12 ,\tv1= ${A.toUpperCase()} , `)).toEqual({
      ok: true,
      timestamp: 12,
      signatures: [A],
    });
  });

  it('ignores unknown schemes and parts without "="', () => {
    expect(parseSignatureHeader(`t=12,v0=legacy,v2=${B},garbage,v1=${A}`)).toEqual({
      ok: true,
      timestamp: 12,
      signatures: [A],
    });
  });

  it.each([
    [undefined, 'missing_timestamp'],
    [null, 'missing_timestamp'],
    ['', 'missing_timestamp'],
    [`v1=${A}`, 'missing_timestamp'],
    [`T=12,v1=${A}`, 'missing_timestamp'],
    [`t=,v1=${A}`, 'invalid_timestamp'],
    [`t=1.5,v1=${A}`, 'invalid_timestamp'],
    [`t=-12,v1=${A}`, 'invalid_timestamp'],
    [`t=1e9,v1=${A}`, 'invalid_timestamp'],
    [`t=0x10,v1=${A}`, 'invalid_timestamp'],
    [`t=012,v1=${A}`, 'invalid_timestamp'],
    [`t=abc,v1=${A}`, 'invalid_timestamp'],
    [`t=1 2,v1=${A}`, 'invalid_timestamp'],
    [`t=9007199254740993,v1=${A}`, 'invalid_timestamp'],
    [`t=12,t=13,v1=${A}`, 'invalid_timestamp'],
    ['t=12', 'missing_signature'],
    ['t=12,v0=abc', 'missing_signature'],
    ['t=12,v1=', 'invalid_signature'],
    [`t=12,v1=${A.slice(1)}`, 'invalid_signature'],
    [`t=12,v1=${A}0`, 'invalid_signature'],
    [`t=12,v1=${'g'.repeat(64)}`, 'invalid_signature'],
  ])('%p is malformed: %s', (header, reason) => {
    expect(parseSignatureHeader(header)).toEqual({ ok: false, reason });
  });
});
