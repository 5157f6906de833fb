import type {
  AuditEventInput,
  AuditRecords,
  Books,
  CarriedRecord,
  RecordedRows,
  WriteRecorder,
} from '@yieldrouter/engine';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { errorReply, knownApiError } from './apiError';
import type { Principal } from './auth';
import type { HandlerResult } from './mountRoutes';

/** One audited call: its recorder joins the use case's transaction; `run` covers the rest. */
export interface AuditedCall {
  /**
   * A recorder that appends the call's audit events in the use case's transaction (then runs
   * `inner`, the Idempotency-Key recorder, when there is one), so they commit with the change.
   */
  recorder<T>(
    toResult: (outcome: T) => HandlerResult,
    inner?: WriteRecorder<T>,
  ): WriteRecorder<T> | undefined;
  /**
   * The call's audit rows, for a use case whose write is group-committed with other requests'
   * (settle: one statement records several outcomes) to carry into the statement that writes
   * its change, so they commit with it.
   */
  carried<T>(toResult: (outcome: T) => HandlerResult): CarriedRecord<T> | undefined;
  /**
   * Runs the handler. A call whose use case wrote its rows with its change (through the
   * recorder, or carried) is done; one that changed nothing (a settle replay, a harvest that
   * only prepares) is recorded right after it answers; a refusal with a known error code is
   * recorded on its own (its transaction, if any, rolled back).
   */
  run(call: () => Promise<HandlerResult>): Promise<HandlerResult>;
}

export interface AuditCallParameters {
  readonly params: unknown;
  readonly principal: Principal | null;
  readonly requestId: string;
}

interface AuditSettings {
  readonly audit?: AuditRecords | undefined;
  readonly walletOf?: ((address: string) => string) | undefined;
}

/** A call that is not audited: the handler alone, with the Idempotency-Key recorder if any. */
const NOT_AUDITED: AuditedCall = {
  recorder: (_toResult, inner) => inner,
  carried: () => undefined,
  run: (call) => call(),
};

/**
 * The wallets a call acts on: its wallet parameter (the path's `{address}` on a public route,
 * such as the permissionless harvest, which has no key scope to name one), its plan's wallet,
 * or the key's wallets.
 */
async function walletsOf(
  route: RouteDefinition,
  records: AuditRecords,
  walletOf: AuditSettings['walletOf'],
  { params, principal }: AuditCallParameters,
): Promise<string[]> {
  const values = (params ?? {}) as Record<string, unknown>;
  const walletParam =
    route.walletParam ?? (route.path.includes('{address}') ? 'address' : undefined);
  const address = walletParam ? values[walletParam] : undefined;
  if (typeof address === 'string') return [walletOf?.(address) ?? address];
  const planId = values['planId'];
  if (typeof planId === 'string') {
    const wallet = await records.planWallet(planId);
    return wallet ? [wallet] : [];
  }
  // Webhook subscriptions belong to the owner's key: they change what each of its wallets reports.
  return [...(principal?.wallets ?? [])].filter((wallet) => wallet !== '*');
}

function outcomeOf(result: HandlerResult): Pick<AuditEventInput, 'outcome' | 'planId'> {
  const body = (result.body ?? {}) as Record<string, unknown>;
  const blocked = body['status'] === 'blocked' || body['outcome'] === 'blocked';
  const planId = body['planId'];
  return {
    outcome: blocked ? 'blocked' : 'ok',
    planId: typeof planId === 'string' ? planId : null,
  };
}

/**
 * Starts the audit of a call on an `audited` route (a pass-through for other routes, and for a
 * call that names no wallet: an unknown plan). Only the call's identity and outcome are kept:
 * never a body, a signature or a key.
 */
export async function auditCall(
  route: RouteDefinition,
  { audit: records, walletOf }: AuditSettings,
  parameters: AuditCallParameters,
): Promise<AuditedCall> {
  if (!route.audited || !records) return NOT_AUDITED;
  const wallets = await walletsOf(route, records, walletOf, parameters);
  if (wallets.length === 0) return NOT_AUDITED;
  const { principal, requestId } = parameters;
  const planIdParam = (parameters.params as Record<string, unknown> | undefined)?.['planId'];
  const events = (
    result: Pick<AuditEventInput, 'outcome' | 'planId' | 'status' | 'errorCode'>,
  ): AuditEventInput[] =>
    wallets.map((wallet) => ({
      wallet,
      operation: route.operationId,
      method: route.method.toUpperCase() as AuditEventInput['method'],
      path: route.path,
      actorRole: principal?.role ?? 'public',
      keyId: principal?.keyId ?? null,
      requestId,
      ...result,
      planId: result.planId ?? (typeof planIdParam === 'string' ? planIdParam : null),
    }));
  const answered = (result: HandlerResult) =>
    events({ ...outcomeOf(result), status: result.status, errorCode: null });
  let recorded = false;
  return {
    recorder: <T>(toResult: (outcome: T) => HandlerResult, inner?: WriteRecorder<T>) => {
      const recorder = async (tx: Books, outcome: T) => {
        await records.record(tx, answered(toResult(outcome)));
        recorded = true;
        await inner?.(tx, outcome);
      };
      // As rows too, for a use case that writes its change in one statement (a route's plan).
      const rows = (outcome: T): RecordedRows => {
        const innerRows = inner?.rows(outcome);
        return {
          audit: [...answered(toResult(outcome)), ...(innerRows?.audit ?? [])],
          ...(innerRows?.answer ? { answer: innerRows.answer } : {}),
          committed: () => {
            recorded = true;
            innerRows?.committed();
          },
        };
      };
      return Object.assign(recorder, { rows });
    },
    carried: (toResult) => ({
      rows: (outcome) => answered(toResult(outcome)),
      committed: () => {
        recorded = true;
      },
    }),
    run: async (call) => {
      let result: HandlerResult;
      try {
        result = await call();
      } catch (error) {
        const known = knownApiError(error);
        if (known) {
          const refusal = events({
            outcome: 'refused',
            planId: null,
            status: errorReply(known, requestId).status,
            errorCode: known.code,
          });
          // The refusal's own record must never hide the refusal (the database may be down).
          await records.record(undefined, refusal).catch(() => undefined);
        }
        throw error;
      }
      if (!recorded) await records.record(undefined, answered(result));
      return result;
    },
  };
}
