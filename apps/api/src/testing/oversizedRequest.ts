import http from 'node:http';

/** What a client saw: the status it read (if any) and the error its request raised (if any). */
export interface OversizedOutcome {
  readonly status: number | null;
  readonly error: string | null;
}

/**
 * Sends GET /aaaa… (a 120-kB URL, over Node's 16-kB header limit) to 127.0.0.1:`port` and
 * reports what the client saw once the connection is over.
 */
export function sendOversizedRequest(port: number): Promise<OversizedOutcome> {
  return new Promise((resolve) => {
    let status: number | null = null;
    let error: string | null = null;
    const request = http.request(
      { host: '127.0.0.1', port, path: `/${'a'.repeat(120_000)}`, agent: false },
      (response) => {
        status = response.statusCode ?? null;
        response.resume();
      },
    );
    request.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    request.on('close', () => {
      // Let an error that follows the response's end be counted.
      setTimeout(() => resolve({ status, error }), 50);
    });
    request.end();
  });
}
