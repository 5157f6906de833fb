import { normalizeStructTag } from '@mysten/sui/utils';
import { normalizeSuiOwner } from './address';
import type { EventView } from './shapes';

/** What a router event must say for a receipt to count. */
export interface ExpectedRouterEvent {
  /** `<packageId>::router::<Name>`, canonical. */
  readonly type: string;
  readonly planBytes: Uint8Array;
  readonly owner: string;
  /** Venue legs: the adapter the event must name. */
  readonly adapter: string | undefined;
}

export type EventMatch =
  | { readonly status: 'matched'; readonly amount: bigint }
  | { readonly status: 'mismatch'; readonly reason: string };

function canonicalType(type: string): string | undefined {
  try {
    return normalizeStructTag(type);
  } catch {
    return undefined;
  }
}

function samePlan(value: unknown, planBytes: Uint8Array): boolean {
  return (
    Array.isArray(value) &&
    value.length === planBytes.length &&
    value.every((byte, index) => byte === planBytes[index])
  );
}

function sameAddress(value: unknown, expected: string): boolean {
  return typeof value === 'string' && normalizeSuiOwner(value) === expected;
}

function fields(event: EventView): Record<string, unknown> {
  const json = event.parsedJson;
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
}

/**
 * Finds our router event for the plan. Sui prints the event's `vector<u8>` plan_id as an array of
 * numbers, addresses as 0x strings and the u64 amount as a decimal string. Only our package can
 * emit a type under `<packageId>::router`, so the type check also proves where the event came from.
 * Several matching events (one plan, several calls in one transaction) add up.
 */
export function matchRouterEvent(
  events: readonly EventView[],
  expected: ExpectedRouterEvent,
): EventMatch {
  const name = expected.type.slice(expected.type.lastIndexOf('::') + 2);
  const typed = events.filter((event) => canonicalType(event.type) === expected.type);
  if (typed.length === 0) return { status: 'mismatch', reason: `no ${name} event from our router` };
  const forPlan = typed.filter((event) => samePlan(fields(event).plan_id, expected.planBytes));
  if (forPlan.length === 0) return { status: 'mismatch', reason: `no ${name} event for this plan` };
  const ours = forPlan.filter((event) => {
    const data = fields(event);
    const adapterOk = expected.adapter === undefined || sameAddress(data.adapter, expected.adapter);
    return sameAddress(data.owner, expected.owner) && adapterOk;
  });
  if (ours.length === 0) {
    return { status: 'mismatch', reason: `the ${name} event names another owner or adapter` };
  }
  let amount = 0n;
  for (const event of ours) {
    const value = fields(event).amount;
    if (typeof value !== 'string' || !/^\d+$/.test(value)) {
      return { status: 'mismatch', reason: `the ${name} event has no readable amount` };
    }
    amount += BigInt(value);
  }
  return { status: 'matched', amount };
}
