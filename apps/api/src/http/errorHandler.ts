import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { ApiError, errorReply, knownApiError } from './apiError';
import { redactPath } from './findKeyMaterial';
import { guardRequestPart } from './requestGuard';

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

function fromBodyParser(error: BodyParserError, limit: number): ApiError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError('BAD_REQUEST', 'body: malformed JSON', { field: 'body' });
    case 'entity.too.large':
      return new ApiError('PAYLOAD_TOO_LARGE', `body: larger than the ${limit}-byte limit`, {
        field: 'body',
      });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'body: only UTF-8 JSON is accepted');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ApiError('BAD_REQUEST', 'body: the request body could not be read');
    default:
      // Any other refusal while reading the body (a Content-Encoding whose bytes do not
      // decode, say): http-errors marks it 4xx and safe to expose.
      if (
        typeof error.status === 'number' &&
        error.status >= 400 &&
        error.status < 500 &&
        error.expose
      ) {
        return new ApiError('BAD_REQUEST', 'body: the request body could not be read', {
          field: 'body',
        });
      }
      return null;
  }
}

/**
 * Express's router refuses a path parameter that is not valid percent-encoding (`%ZZ`) with a
 * URIError carrying status 400: the caller's mistake, answered as such.
 */
function fromRouter(error: unknown): ApiError | null {
  if (!(error instanceof URIError) || (error as { status?: unknown }).status !== 400) return null;
  return new ApiError('BAD_REQUEST', 'path: a parameter is not valid percent-encoding', {
    field: 'path',
  });
}

/** Seconds a client waits before retrying during a database outage (connections come back fast). */
const DATABASE_RETRY_AFTER_SECONDS = '1';

/**
 * The database dropped the connection or cannot be reached (restart, failover): 503 with
 * Retry-After, for the client to retry, never a 500. Logged once per burst, not per request.
 */
function fromDatabaseOutage(
  error: unknown,
  logger: Logger,
  outage: { at: number; isUnavailable: (error: unknown) => boolean },
): ApiError | null {
  if (!outage.isUnavailable(error)) return null;
  const now = Date.now();
  if (now - outage.at > 5000) {
    logger.warn({ err: (error as Error).cause ?? error }, 'database unavailable: answering 503');
  }
  outage.at = now;
  return new ApiError('DATABASE_UNAVAILABLE', 'the database is unavailable; retry shortly', {
    headers: { 'Retry-After': DATABASE_RETRY_AFTER_SECONDS },
  });
}

/**
 * Unknown route: 404 NOT_FOUND with the standard body, or 400 KEY_MATERIAL_REFUSED when a
 * segment of the path is key material (a route's own parameters were checked by type).
 */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  const path = redactPath(req.path);
  if (path.includes('[redacted]')) {
    guardRequestPart(req.path.split('/').map(safeDecode), 'path');
  }
  next(new ApiError('NOT_FOUND', `no route for ${req.method} ${path}`));
};

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/** The one place that writes error bodies. 500s say nothing internal. */
export function errorHandler(
  logger: Logger,
  bodyLimitBytes: number,
  /** Whether an error means the database cannot be reached (the store says): 503, not 500. */
  isUnavailable: (error: unknown) => boolean,
): ErrorRequestHandler {
  const outage = { at: 0, isUnavailable };
  return (error: unknown, req, res, _next) => {
    const known =
      knownApiError(error) ??
      fromBodyParser((error ?? {}) as BodyParserError, bodyLimitBytes) ??
      fromRouter(error) ??
      fromDatabaseOutage(error, logger, outage);
    const apiError =
      known ?? new ApiError('INTERNAL_ERROR', 'internal error; quote the requestId to support');
    const requestId = String(res.locals['requestId'] ?? '');
    if (!known) {
      // The logger's `err` serializer keeps the name, code and frames: no SQL, no values.
      logger.error(
        {
          err: error,
          code: apiError.code,
          requestId,
          method: req.method,
          path: redactPath(req.path),
        },
        'unhandled error',
      );
    } else if (apiError.code === 'KEY_MATERIAL_REFUSED') {
      logger.warn(
        { code: apiError.code, field: apiError.field, requestId },
        'key material refused',
      );
    }
    const { status, body } = errorReply(apiError, requestId);
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    res.status(status).json(body);
  };
}
