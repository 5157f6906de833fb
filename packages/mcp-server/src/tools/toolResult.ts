type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface BlockerLike {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly meaning?: unknown;
}

function blockersText(blockers: unknown): string {
  if (!Array.isArray(blockers) || blockers.length === 0) return 'no blockers listed';
  return (blockers as BlockerLike[])
    .map((blocker) => {
      const why = blocker.message ?? blocker.meaning;
      return typeof why === 'string' ? `${String(blocker.code)} (${why})` : String(blocker.code);
    })
    .join('; ');
}

/**
 * The short text beside a tool's structured content. It says money moved only when the answer
 * says `submitted: true`; a plan is called a plan, one the owner still has to sign.
 */
export function summarizeResult(toolName: string, body: unknown): string {
  if (!isObject(body)) return `${toolName}: OK.`;
  const planId = typeof body['planId'] === 'string' ? ` ${body['planId']}` : '';
  if (body['status'] === 'blocked') {
    return (
      `${toolName}: BLOCKED plan${planId}: nothing was prepared and no money moved. ` +
      `Blockers: ${blockersText(body['blockers'])}. Read blockers[] and fix the cause first.`
    );
  }
  if (body['submitted'] === true) {
    return `${toolName}: submitted${planId}: the transaction was broadcast (submitted: true).`;
  }
  if ('ownerMustSign' in body || 'submitted' in body || body['prepared'] === true) {
    return (
      `${toolName}: prepared plan${planId}. No money has moved (submitted: false): the owner ` +
      'must sign each leg with their own wallet before anything happens on chain.'
    );
  }
  const count = typeof body['count'] === 'number' ? ` (${body['count']} items)` : '';
  return `${toolName}: OK${count}.`;
}

/** The structured content of an answer: the body when it is an object, else `{ result }`. */
export const structuredOf = (body: unknown): JsonObject =>
  isObject(body) ? body : { result: body };
