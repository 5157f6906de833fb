import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { AuthFailures } from './authFailures';

const waitsOf = async (failures: AuthFailures, identity: string, count: number) => {
  const waits: number[] = [];
  for (let index = 0; index < count; index += 1) waits.push(await failures.fail([identity]));
  return waits;
};

describe('AuthFailures', () => {
  it('free failures cost nothing; each further one doubles the wait, up to the cap (per process)', async () => {
    const failures = new AuthFailures({
      redis: null,
      prefix: 'unused:',
      freeFailures: 3,
      maxBackoffSeconds: 16,
    });
    expect(await waitsOf(failures, 'ip:a', 10)).toEqual([0, 0, 0, 1, 2, 4, 8, 16, 16, 16]);
    expect(await failures.waitSeconds('ip:a')).toBe(16);
    expect(await failures.waitSeconds('ip:b')).toBe(0);
  });

  it('counts across instances through Redis', async () => {
    const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
      maxRetriesPerRequest: 1,
    });
    await redis.ping();
    const prefix = `svc:test:${randomBytes(6).toString('hex')}:`;
    try {
      const options = { redis, prefix, freeFailures: 2, maxBackoffSeconds: 60 };
      const one = new AuthFailures(options);
      const two = new AuthFailures(options);
      expect(await one.fail(['prefix:svc_owner_Ab'])).toBe(0);
      expect(await two.fail(['prefix:svc_owner_Ab'])).toBe(0);
      expect(await one.fail(['prefix:svc_owner_Ab'])).toBe(1);
      expect(await two.waitSeconds('prefix:svc_owner_Ab')).toBe(1);
      expect(await two.fail(['prefix:svc_owner_Ab'])).toBe(2);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
