import { Redis } from 'ioredis';
import { startPrivateRedis } from './privateRedis';

describe('startPrivateRedis', () => {
  it('serves on a port of its own and comes back empty after a restart', async () => {
    const server = await startPrivateRedis();
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    try {
      await client.set('faults:probe', '1');
      await server.restartEmpty({ downMs: 100 });
      expect(await client.get('faults:probe')).toBeNull();
    } finally {
      client.disconnect();
      await server.stop();
    }
  });
});
