import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createLogger } from '../logger';
import { RateLimiter } from './rateLimiter';

let redis: Redis;
const prefix = `svc:test:rl:${randomBytes(6).toString('hex')}:`;
beforeAll(async () => {
  redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', {
    maxRetriesPerRequest: 1,
  });
  await redis.ping();
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const limiter = () =>
  new RateLimiter({ redis, windowSeconds: 3600, logger: createLogger('silent'), prefix });

describe('RateLimiter (leased tokens on a shared Redis counter)', () => {
  it('two instances together never allow more than the limit', async () => {
    const a = limiter();
    const b = limiter();
    const limit = 200;
    const decisions = await Promise.all(
      Array.from({ length: 600 }, (_, i) => (i % 2 === 0 ? a : b).consume('ip:shared', limit)),
    );
    const allowed = decisions.filter((decision) => decision.allowed).length;
    // Unused leased tokens of one instance are lost to the other: at most one lease each.
    expect(allowed).toBeLessThanOrEqual(limit);
    expect(allowed).toBeGreaterThanOrEqual(limit - 2 * Math.floor(limit / 20));
  });

  it('leases in chunks: far fewer Redis writes than requests', async () => {
    const one = limiter();
    for (let i = 0; i < 100; i += 1) await one.consume('ip:chunked', 1000);
    const counted = Number(
      await redis.get(`${prefix}ip:chunked:${Math.floor(Date.now() / 3_600_000)}`),
    );
    expect(counted).toBe(100); // two leases of 50
  });

  it('without Redis it still limits, per process', async () => {
    const local = new RateLimiter({
      redis: null,
      windowSeconds: 60,
      logger: createLogger('silent'),
    });
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push((await local.consume('ip:local', 3)).allowed);
    expect(results).toEqual([true, true, true, false, false]);
  });
});
