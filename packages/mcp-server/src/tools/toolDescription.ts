import type { RouteDefinition } from '@yieldrouter/schemas';
import { TOOL_DESCRIPTION_OVERRIDES } from './toolDescriptionOverrides';

/** The rules a model must not get wrong, added to the tools they concern (kept short). */
const PLAN =
  'Returns a plan (status, legs). Nothing moves until the owner signs every leg with their own ' +
  'wallet (ownerMustSign); money moved only if submitted: true. A "blocked" plan prepared ' +
  'nothing: read blockers[].';
const AMOUNTS = 'Amounts are integer micros strings ("1000000" is 1 USDC).';
const RETRY =
  'Retry-safe: the same arguments within one hour of the first call reuse its Idempotency-Key ' +
  '(the hour counts from that call, not the clock), so it writes once.';

/** The longest manifest description kept whole; a longer one is cut to its first sentence. */
const LONGEST_DETAIL = 240;

export interface ToolDescriptionParameters {
  readonly route: RouteDefinition;
  readonly takesAmounts: boolean;
  readonly answersPlan: boolean;
  readonly writesOnce: boolean;
}

/** The manifest's detail, short: whole when short, else its first sentence if that is short. */
function detailOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const description = text.replace(/\s+/g, ' ').trim();
  if (description.length <= LONGEST_DETAIL) return description;
  const first = /^.+?\.(?=\s|$)/s.exec(description)?.[0];
  return first && first.length <= LONGEST_DETAIL ? first : undefined;
}

/**
 * The tool description for a model: what it does and returns (the override, or the manifest's
 * summary and short detail), who may call it, and the rules that apply (plans, amounts, retries).
 */
export function toolDescription(parameters: ToolDescriptionParameters): string {
  const { route } = parameters;
  const override = TOOL_DESCRIPTION_OVERRIDES[route.operationId];
  const parts = override ? [override] : [route.summary, detailOf(route.description)];
  if (route.auth !== 'public') {
    parts.push(
      `Key: ${route.auth.join(' or ')}` + (route.walletParam ? ', scoped to the wallet.' : '.'),
    );
  }
  if (parameters.answersPlan) parts.push(PLAN);
  if (parameters.takesAmounts) parts.push(AMOUNTS);
  if (parameters.writesOnce) parts.push(RETRY);
  return parts.filter((part): part is string => part !== undefined).join(' ');
}
