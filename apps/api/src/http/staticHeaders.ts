import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The headers a middleware sets on every answer (helmet's, the version headers), recorded once
 * on a stand-in response so the gate can send them without running it.
 */
export function recordStaticHeaders(
  middlewares: readonly ((req: IncomingMessage, res: ServerResponse, next: () => void) => void)[],
): [string, string][] {
  const headers = new Map<string, string>();
  const res = {
    setHeader(name: string, value: unknown) {
      headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      return res;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
    getHeader(name: string) {
      return headers.get(name);
    },
  } as unknown as ServerResponse;
  const req = { headers: {}, method: 'GET', url: '/' } as IncomingMessage;
  for (const middleware of middlewares) middleware(req, res, () => undefined);
  return [...headers];
}

/**
 * Sets recorded headers on every answer: what the recorded middlewares would set, without
 * running them per request (helmet alone is a dozen nested middlewares). Removals are not
 * replayed: the app disables X-Powered-By, the one header helmet removes.
 */
export function fixedHeaders(
  headers: readonly (readonly [string, string])[],
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
