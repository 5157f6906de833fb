import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { HttpObserver } from '@yieldrouter/metrics';
import { redactPath } from './findKeyMaterial';

/**
 * Each answer's duration metric and access line, once it is sent. A refusal (429) is a debug
 * line: a flood must not cost a log write per request.
 */
export function accessRecorder(
  logger: Logger,
  httpMetrics: Pick<HttpObserver, 'request'>,
): (req: Request, res: Response, requestId: string) => void {
  return (req, res, requestId) => {
    const started = process.hrtime.bigint();
    // `on`, not `once`: 'finish' fires at most once per response, and once() wraps per call.
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // Labelled by the route template the request reached (never the raw path: it carries
      // wallet addresses); `unmatched` for 404s, /docs and the like.
      const route: unknown = res.locals['route'];
      httpMetrics.request(
        typeof route === 'string' ? route : 'unmatched',
        req.method,
        res.statusCode,
        ms / 1000,
      );
      // The path is redacted only for a line that is written.
      const level = res.statusCode === 429 ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        { requestId, method: req.method, path: redactPath(req.path), status: res.statusCode, ms },
        'request',
      );
    });
  };
}
