import type { Blocker, BlockerCode } from '@yieldrouter/schemas';
import { describeBlockerCode } from '@yieldrouter/schemas';

/** A blocker of the catalog: its code, the catalog's message, and what else it names. */
export const blocker = (
  code: BlockerCode,
  extra: { field?: string; details?: Record<string, string> } = {},
): Blocker => ({ code, message: describeBlockerCode(code), ...extra });
