import { deriveIdempotencyKey, toolCallDigest } from './deriveIdempotencyKey';

// A retried tool call (same caller, tool and arguments, same sighting) carries the same key.
const base = {
  scope: 'key-a',
  operationId: 'routeFunds',
  args: { address: '0x1', amountMicros: '1000000', chain: 'base', token: 'USDC' },
  sighting: '7d0c7a52-5a4b-4a57-9a3f-0d1c2b3a4f5e',
};

describe('deriveIdempotencyKey', () => {
  it('is the same for the same call, whatever the order of the arguments', () => {
    const reordered = { token: 'USDC', chain: 'base', amountMicros: '1000000', address: '0x1' };
    expect(deriveIdempotencyKey({ ...base, args: reordered })).toBe(deriveIdempotencyKey(base));
    expect(toolCallDigest({ ...base, args: reordered })).toBe(toolCallDigest(base));
    expect(deriveIdempotencyKey(base)).toMatch(/^mcp-[0-9a-f]{48}$/);
  });

  it('differs for another caller, tool, argument or sighting', () => {
    const key = deriveIdempotencyKey(base);
    expect(deriveIdempotencyKey({ ...base, scope: 'key-b' })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, operationId: 'withdraw' })).not.toBe(key);
    expect(deriveIdempotencyKey({ ...base, args: { ...base.args, amountMicros: '2' } })).not.toBe(
      key,
    );
    expect(deriveIdempotencyKey({ ...base, sighting: 'another' })).not.toBe(key);
  });
});
