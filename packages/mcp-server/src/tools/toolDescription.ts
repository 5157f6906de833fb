import type { RouteDefinition } from '@yieldrouter/schemas';

/** The SPEC rules a model must not get wrong, added to the tools they concern. */
const AMOUNTS =
  'Amounts are integer micros strings ("1000000" is 1 USDC): no decimals, no numbers.';
const PLAN = [
  'Answers a plan document. Nothing moves until the owner signs every leg with their own',
  'wallet (ownerMustSign: true): this service never signs and never holds keys. `submitted` is',
  'false unless broadcast is on and a real on-chain digest exists; never tell the user funds',
  'moved unless the answer says submitted: true.',
  'A plan with status "blocked" prepared nothing: read its blockers[] (codes and meanings in the',
  'yieldrouter://errors resource) and fix the cause before trying again.',
].join(' ');
const RETRY =
  'Safe to retry: a call with the same arguments within one hour of the first reuses its ' +
  'Idempotency-Key (the hour counts from that first call, not the clock), so it writes once and ' +
  'answers the first result. The same call made later writes again.';
const KEYS =
  'Never pass private keys or seed phrases: only public addresses and owner-signed bytes; such ' +
  'values are refused.';

export interface ToolDescriptionParameters {
  readonly route: RouteDefinition;
  readonly takesAmounts: boolean;
  readonly answersPlan: boolean;
  readonly writesOnce: boolean;
}

/** The tool description: the route's summary and description, then the rules that apply. */
export function toolDescription(parameters: ToolDescriptionParameters): string {
  const { route } = parameters;
  const lines = [route.summary];
  if (route.description) lines.push('', route.description);
  const rules: string[] = [];
  if (route.auth !== 'public') {
    rules.push(
      `Needs a ${route.auth.join(' or ')} API key` +
        (route.walletParam ? ' allowed for the wallet (else WALLET_SCOPE).' : '.'),
    );
  }
  if (parameters.answersPlan) rules.push(PLAN);
  if (parameters.takesAmounts) rules.push(AMOUNTS);
  if (parameters.writesOnce) rules.push(RETRY);
  if (route.method !== 'get') rules.push(KEYS);
  if (route.deprecated) rules.push('Deprecated.');
  if (rules.length > 0) lines.push('', ...rules);
  return lines.join('\n');
}
