import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './startTestApp';
import { startTestApp } from './startTestApp';

export interface ListeningTestApp extends TestApp {
  /** Site root of the app on an ephemeral port, e.g. `http://127.0.0.1:40123`. */
  readonly baseUrl: string;
}

/**
 * The real API (fresh PostgreSQL database, real Redis) listening on `port` (default: an
 * ephemeral one).
 */
export async function listenTestApp(
  env: Record<string, string> = {},
  deps: Parameters<typeof startTestApp>[1] = {},
  port = 0,
): Promise<ListeningTestApp> {
  const testApp = await startTestApp(env, deps);
  const server: Server = await new Promise((resolve) => {
    const listening = testApp.app.listen(port, '127.0.0.1', () => resolve(listening));
  });
  const { port: listening } = server.address() as AddressInfo;
  return {
    ...testApp,
    baseUrl: `http://127.0.0.1:${listening}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await testApp.close();
    },
  };
}
