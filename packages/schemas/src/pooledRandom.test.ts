import { newPlanId } from './chainAdapter';
import { pooledRandomBytes, timeOrderedBytes } from './pooledRandom';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('pooledRandomBytes', () => {
  it('hands out the asked length, never the same bytes twice, across pool refills', () => {
    const seen = new Set<string>();
    // 3 000 × 16 bytes: the 4 KiB pool is refilled about a dozen times, mid-run.
    let lengths = 0;
    for (let index = 0; index < 3_000; index += 1) {
      const bytes = pooledRandomBytes(16);
      lengths += bytes.length;
      seen.add(hex(bytes));
    }
    expect(lengths).toBe(3_000 * 16);
    expect(seen.size).toBe(3_000);
  });

  it('lengths that do not divide the pool still get fresh bytes (refill before running short)', () => {
    const chunks = Array.from({ length: 40 }, () => hex(pooledRandomBytes(333)));
    expect(new Set(chunks).size).toBe(40);
    for (const chunk of chunks) expect(chunk).toHaveLength(666);
  });

  it('a returned buffer is the caller’s: changing it changes nothing handed out later', () => {
    const first = pooledRandomBytes(16);
    first.fill(0);
    expect(hex(pooledRandomBytes(16))).not.toBe('0'.repeat(32));
  });

  it('refuses lengths outside 0..4096', () => {
    expect(() => pooledRandomBytes(-1)).toThrow(RangeError);
    expect(() => pooledRandomBytes(4097)).toThrow(RangeError);
    expect(() => pooledRandomBytes(1.5)).toThrow(RangeError);
    expect(pooledRandomBytes(0)).toHaveLength(0);
  });

  it('plan ids stay plan_ + 32 hex and unique', () => {
    const ids = Array.from({ length: 5_000 }, () => newPlanId());
    expect(ids.filter((id) => !/^plan_[0-9a-f]{32}$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('plan ids sort by creation time: the first 6 bytes are the time in ms', () => {
    const at = Date.UTC(2026, 11, 6, 6, 0, 0, 123);
    const bytes = timeOrderedBytes(16, at);
    expect(hex(bytes.slice(0, 6))).toBe(at.toString(16).padStart(12, '0'));
    expect(hex(timeOrderedBytes(16, at + 1)) > hex(timeOrderedBytes(16, at))).toBe(true);
    const ids = [newPlanId()];
    const later = Date.now() + 2;
    while (Date.now() < later) ids.push(newPlanId());
    expect((ids.at(-1) as string) > (ids[0] as string)).toBe(true);
    expect(() => timeOrderedBytes(5)).toThrow(RangeError);
  });
});
