/** Without a usable `Retry-After`, a 429 holds every Iris request off this long (Circle's lock). */
export const IRIS_HOLD_OFF_MS = 5 * 60_000;
/** A `Retry-After` further out than this is cut to it (a broken header must not lock us for days). */
const MAX_HOLD_OFF_MS = 60 * 60_000;
const WINDOW_MS = 1000;

/** An Iris read refused before it was sent: the request budget is spent, or a 429 hold-off runs. */
export class IrisGateError extends Error {
  override readonly name = 'IrisGateError';
}

export interface CreateIrisGateParameters {
  /** How requests are sent once let through. */
  readonly fetch: typeof fetch;
  /** At most this many requests start in any one second (`SVC_CCTP_MAX_REQUESTS_PER_SECOND`). */
  readonly maxRequestsPerSecond: number;
  /** A request waits for a free slot at most this long (the read's own timeout), else fails. */
  readonly timeoutMs: number;
  /** Told once when a 429 starts a hold-off (the process's logger). */
  readonly onHoldOff?: (until: Date, retryAfter: string | null) => void;
  /** Clock in ms and how to wait (tests). */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface IrisGate {
  /** `fetch` through the budget and the hold-off; throws `IrisGateError` when it refuses. */
  readonly fetch: typeof fetch;
  /** When the current 429 hold-off ends, if one runs. */
  holdOffUntil(): Date | undefined;
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `now`; undefined when unusable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date (IMF-fixdate, RFC 850 or asctime) starts with the day's name.
  const at = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(at - now, 0);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One gate for every request the process sends to Circle's attestation service (fees and
 * messages). Iris blocks a client for 5 minutes past 35 requests per second, so:
 * - a sliding one-second window lets at most `maxRequestsPerSecond` requests start in any second
 *   (a token bucket of the same rate would let twice that through in a second after an idle
 *   spell); a request waits for a slot when one frees within `timeoutMs`, else it is refused at
 *   once (fail closed: the budget is spent);
 * - an answer 429 stops every request until its `Retry-After` (seconds or an HTTP date; 5
 *   minutes without one, at most an hour); meanwhile requests are refused at once, naming when
 *   the hold-off ends, and `onHoldOff` is told once per hold-off.
 *
 * @example
 * const gate = createIrisGate({ fetch, maxRequestsPerSecond: 15, timeoutMs: 4000 });
 * await gate.fetch(`${irisUrl}/v2/burn/USDC/fees/6/3`); // or throws IrisGateError
 */
export function createIrisGate(parameters: CreateIrisGateParameters): IrisGate {
  const now = parameters.now ?? Date.now;
  const sleep = parameters.sleep ?? wait;
  const limit = parameters.maxRequestsPerSecond;
  // Start times given out (some may lie ahead, for requests waiting their turn), ascending.
  const starts: number[] = [];
  let holdUntil = 0;

  const refuseDuringHoldOff = (at: number) => {
    if (at >= holdUntil) return;
    throw new IrisGateError(
      `the attestation service answered 429 (rate limited): no request to it until ${new Date(holdUntil).toISOString()}`,
    );
  };

  /** The start time of the next request: now, or when the window frees a slot. */
  const reserve = (at: number): number => {
    while (starts.length > 0 && (starts[0] as number) <= at - WINDOW_MS) starts.shift();
    const slot =
      starts.length < limit
        ? at
        : Math.max(at, (starts[starts.length - limit] as number) + WINDOW_MS);
    if (slot - at > parameters.timeoutMs) {
      throw new IrisGateError(
        `the attestation service request budget is spent (${limit} requests per second in this process): no slot within ${parameters.timeoutMs} ms`,
      );
    }
    starts.push(slot);
    return slot;
  };

  const gated = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    refuseDuringHoldOff(now());
    const slot = reserve(now());
    if (slot > now()) await sleep(slot - now());
    refuseDuringHoldOff(now());
    const response = await parameters.fetch(input, init);
    if (response.status !== 429) return response;
    await response.body?.cancel().catch(() => undefined);
    const at = now();
    const header = response.headers.get('retry-after');
    const delay = Math.min(retryAfterMs(header, at) ?? IRIS_HOLD_OFF_MS, MAX_HOLD_OFF_MS);
    const wasHolding = at < holdUntil;
    holdUntil = Math.max(holdUntil, at + delay);
    if (!wasHolding) parameters.onHoldOff?.(new Date(holdUntil), header);
    refuseDuringHoldOff(at);
    // Retry-After: 0 (or a date already past): refused all the same, the next read may go.
    throw new IrisGateError('the attestation service answered 429 (rate limited)');
  };

  return {
    fetch: gated as typeof fetch,
    holdOffUntil: () => (now() < holdUntil ? new Date(holdUntil) : undefined),
  };
}
