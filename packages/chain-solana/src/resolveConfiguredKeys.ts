import type { Blocker, BlockerCode } from '@yieldrouter/schemas';
import type { PublicKey } from '@solana/web3.js';
import { parsePublicKey } from './parsePublicKey';

/** One configured id a leg needs, and the blocker it raises when missing or malformed. */
export interface KeyRequirement {
  readonly value: string | undefined;
  readonly code: BlockerCode;
  /** The configuration field, as reported in the blocker (`yieldRouter`, `ids.adapter`…). */
  readonly field: string;
  readonly details?: Readonly<Record<string, string>>;
}

export type ResolvedKeys<K extends string> =
  | { readonly status: 'ok'; readonly keys: Readonly<Record<K, PublicKey>> }
  | { readonly status: 'blocked'; readonly blockers: readonly Blocker[] };

/**
 * Parses every configured id a leg needs; any that is missing or not a base58 key becomes a
 * blocker, and all blockers are reported together.
 *
 * @example
 * resolveConfiguredKeys({ yieldRouter: { value: config.yieldRouter, code: 'router_not_configured', field: 'yieldRouter' } });
 */
export function resolveConfiguredKeys<K extends string>(
  requirements: Readonly<Record<K, KeyRequirement>>,
): ResolvedKeys<K> {
  const keys: Partial<Record<K, PublicKey>> = {};
  const blockers: Blocker[] = [];
  for (const name of Object.keys(requirements) as K[]) {
    const requirement = requirements[name];
    const key = requirement.value === undefined ? undefined : parsePublicKey(requirement.value);
    if (key) {
      keys[name] = key;
      continue;
    }
    const problem = requirement.value === undefined ? 'is not configured' : 'is not a valid key';
    blockers.push({
      code: requirement.code,
      message: `Solana ${requirement.field} ${problem}`,
      field: requirement.field,
      ...(requirement.details ? { details: { ...requirement.details } } : {}),
    });
  }
  if (blockers.length > 0) return { status: 'blocked', blockers };
  return { status: 'ok', keys: keys as Record<K, PublicKey> };
}
