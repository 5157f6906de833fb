import { z } from 'zod';

/**
 * Stored JSON read back (a plan's simulation, a leg's payload, a plan's blockers, a divergence's
 * changes), checked against its schema in packages/schemas once per document, never cast. It
 * is returned as stored, its keys untouched (in JSONB's order, not the order written: a leg's
 * bytes digest and a simulation's digest are of canonical JSON, keys sorted). A schema with
 * transforms or defaults does not fit (what is returned is what was read). What does not match is an error naming what was read.
 */
export function storedJson<T>(schema: z.ZodType<T, T>, value: unknown, what: string): T {
  // One parse: its verdict narrows `value` (a schema without transforms returns what it read),
  // its error names what did not match.
  let error: z.ZodError | undefined;
  const conforms = (candidate: unknown): candidate is T => {
    const result = schema.safeParse(candidate);
    error = result.error;
    return result.success;
  };
  if (conforms(value)) return value;
  throw new Error(
    `${what}: the stored JSON is not what its schema says${error ? `: ${z.prettifyError(error)}` : ''}`,
  );
}
