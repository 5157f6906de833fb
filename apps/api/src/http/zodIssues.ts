import type { z } from 'zod';
import { ApiError } from './apiError';

/** Turns the first zod issue into a 400 that names the field, e.g. `body.amountMicros`. */
export function badRequestFromZod(location: string, error: z.ZodError): ApiError {
  const issue = error.issues[0];
  if (!issue) return new ApiError('BAD_REQUEST', `${location} is invalid`, { field: location });
  const path = [location, ...issue.path.map(String)].join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    const first = keys[0] ?? '';
    return new ApiError(
      'BAD_REQUEST',
      `${path}: unknown field${keys.length > 1 ? 's' : ''} ${keys.map((k) => `'${k}'`).join(', ')}`,
      { field: `${path}.${first}` },
    );
  }
  const message = issue.message.startsWith('Invalid input: expected')
    ? issue.message.replace('Invalid input: ', '')
    : issue.message;
  return new ApiError('BAD_REQUEST', `${path}: ${message}`, { field: path });
}
