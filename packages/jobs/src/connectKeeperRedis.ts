import { errorMessage } from '@yieldrouter/schemas';
import { Redis } from 'ioredis';

/**
 * A Redis connection for BullMQ queues and workers (`maxRetriesPerRequest: null`: a worker's
 * commands wait for Redis to come back instead of failing). Start-up fails with a clear message
 * when Redis cannot be reached within `timeoutMs`.
 */
export async function connectKeeperRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: timeoutMs,
  });
  // Reconnection errors are reported by the queues and workers using the connection.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `Redis at ${new URL(url).host} is unreachable (${errorMessage(error)}): the keeper needs it for its queues`,
    );
  }
  return redis;
}
