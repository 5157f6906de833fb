// Launch helpers the demo stack and the localnet bridge test share: a free port for the API,
// and the wait until the API answers (or its process exits).

/** A port nothing listens on now (the API binds it next). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `GET /api/v1/svc/status` answers 200; throws if the API exits or 90 s pass. */
export async function waitForReady(baseUrl: string, exited: Promise<number>): Promise<void> {
  let down = false;
  void exited.then(() => {
    down = true;
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !down) {
    try {
      const res = await fetch(`${baseUrl}/api/v1/svc/status`, {
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(down ? 'the API exited during start' : 'the API did not answer within 90 s');
}
