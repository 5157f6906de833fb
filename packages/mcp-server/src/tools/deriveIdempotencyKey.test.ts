import { deriveIdempotencyKey } from './deriveIdempotencyKey';

// A retried tool call (same caller, tool and arguments, same window) carries the same key.
const base = {
  scope: 'key-a',
  operationId: 'routeFunds',
  args: { address: '0x1', amountMicros: '1000000', chain: 'base', token: 'USDC' },
  now: 1_800_000_000_000,
  windowMs: 3_600_000,
};

describe('deriveIdempotencyKey', () => {
  it('is the same for the same call, whatever the order of the arguments', () => {
    const reordered = { token: 'USDC', chain: 'base', amountMicros: '1000000', address: '0x1' };
    expect(deriveIdempotencyKey({ ...base, args: reordered })).toBe(deriveIdempotencyKey(base));
    expect(deriveIdempotencyKey(base)).toMatch(/^mcp-[0-9a-f]{48}$/);
  });

  it('differs for another caller, tool, argument or window', () => {
    const key = deriveIdempotencyKey(base);
    expect(deriveIdempotencyKey({ ...base, scope: 'key-b' })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, operationId: 'withdraw' })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, args: { ...base.args, amountMicros: '2' } })).not.toBe(
      key,
    );
    expect(deriveIdempotencyKey({ ...base, now: base.now + base.windowMs })).not.toBe(key);
  });
});
