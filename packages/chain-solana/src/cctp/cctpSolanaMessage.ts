/**
 * The fields of a CCTP v2 message (header + BurnMessageV2 body) the Solana mint needs, by the
 * published layout: header version(4) sourceDomain(4) destinationDomain(4) nonce(32) sender(32)
 * recipient(32) destinationCaller(32) minFinalityThreshold(4) finalityThresholdExecuted(4), then
 * the body version(4) burnToken(32) mintRecipient(32) amount(32) …
 */
export interface CctpV2MessageFields {
  readonly sourceDomain: number;
  readonly destinationDomain: number;
  readonly nonce: Uint8Array;
  readonly burnToken: Uint8Array;
  readonly mintRecipient: Uint8Array;
  readonly amount: bigint;
}

const HEADER = 148;
const BODY_MIN = 4 + 32 + 32 + 32;

/** Parses the fields above; undefined when `bytes` is too short to be a v2 burn message. */
export function readCctpV2Message(bytes: Uint8Array): CctpV2MessageFields | undefined {
  if (bytes.length < HEADER + BODY_MIN) return undefined;
  const view = Buffer.from(bytes);
  const amount = view.subarray(HEADER + 68, HEADER + 100);
  return {
    sourceDomain: view.readUInt32BE(4),
    destinationDomain: view.readUInt32BE(8),
    nonce: Uint8Array.from(view.subarray(12, 44)),
    burnToken: Uint8Array.from(view.subarray(HEADER + 4, HEADER + 36)),
    mintRecipient: Uint8Array.from(view.subarray(HEADER + 36, HEADER + 68)),
    amount: BigInt(`0x${amount.toString('hex')}`),
  };
}
