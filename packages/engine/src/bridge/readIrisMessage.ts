import { z } from 'zod';
import { IrisGateError } from './irisGate';

/** Circle's attestation service (Iris v2) answer for one source transaction's messages. */
const IrisMessagesResponse = z.object({
  messages: z
    .array(
      z.object({
        message: z.string(),
        attestation: z.string(),
        status: z.string(),
        eventNonce: z.string().nullish(),
      }),
    )
    .min(1),
});

export type IrisMessage =
  | {
      readonly status: 'complete';
      readonly message: `0x${string}`;
      readonly attestation: `0x${string}`;
    }
  | { readonly status: 'pending'; readonly detail: string }
  | { readonly status: 'unavailable'; readonly detail: string; readonly notAsked?: true };

export interface ReadIrisMessageParameters {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly sourceDomain: number;
  readonly transactionHash: string;
  readonly fetch?: typeof fetch;
}

const HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

/**
 * `GET {baseUrl}/v2/messages/{sourceDomain}?transactionHash=…`, fail-closed: the first message
 * of the transaction, once `complete` with a hex message and attestation. Not found yet (404) or
 * `pending_confirmations` → `pending`; a timeout, a 5xx or another shape → `unavailable`.
 *
 * @example
 * await readIrisMessage({ baseUrl, timeoutMs: 4000, sourceDomain: 6, transactionHash })
 * // { status: 'complete', message: '0x…', attestation: '0x…' }
 */
export async function readIrisMessage(parameters: ReadIrisMessageParameters): Promise<IrisMessage> {
  const url =
    `${parameters.baseUrl}/v2/messages/${parameters.sourceDomain}` +
    `?transactionHash=${encodeURIComponent(parameters.transactionHash)}`;
  let response: Response;
  try {
    response = await (parameters.fetch ?? fetch)(url, {
      signal: AbortSignal.timeout(parameters.timeoutMs),
      headers: { accept: 'application/json' },
    });
  } catch (error) {
    if (error instanceof IrisGateError) {
      return { status: 'unavailable', detail: error.message, notAsked: true };
    }
    const name = error instanceof Error ? error.name : '';
    return {
      status: 'unavailable',
      detail: name === 'TimeoutError' ? 'the attestation service timed out' : 'no answer',
    };
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return { status: 'pending', detail: 'the attestation service does not know the burn yet' };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { status: 'unavailable', detail: `the attestation service answered ${response.status}` };
  }
  const parsed = IrisMessagesResponse.safeParse(await response.json().catch(() => undefined));
  const [first] = parsed.success ? parsed.data.messages : [];
  if (!first) return { status: 'unavailable', detail: 'the attestation service answered garbage' };
  if (first.status !== 'complete') {
    return { status: 'pending', detail: `attestation ${first.status}` };
  }
  if (!HEX.test(first.message) || !HEX.test(first.attestation)) {
    return { status: 'unavailable', detail: 'a complete message without hex message/attestation' };
  }
  return {
    status: 'complete',
    message: first.message as `0x${string}`,
    attestation: first.attestation as `0x${string}`,
  };
}
