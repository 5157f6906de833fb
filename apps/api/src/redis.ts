import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Connects to Redis without blocking start-up: commands fail fast while it is down (no
 * offline queue) and the client keeps reconnecting in the background.
 */
export async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 500, 5000),
  });
  let reported = false;
  redis.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    logger.warn(
      { err: error.message },
      'Redis is unreachable: rate limits are per-process until it returns',
    );
  });
  redis.on('ready', () => {
    if (reported) logger.info('Redis is reachable again');
    reported = false;
  });
  try {
    await redis.connect();
  } catch {
    // Reported by the error listener; the client keeps retrying.
  }
  return redis;
}
