// Test support for the bridge jobs (not exported by the package): a rail answering only what a
// test gives it. Settled bridge plans come from `insertSettledBridge` (@yieldrouter/ledger/testing).
import type { BridgeRail } from './bridgeRail';

/** A rail that answers only what `answers` gives (its attestation reads, mint search, receipt). */
export function answeringRail(
  answers: Partial<Pick<BridgeRail, 'readAttestation' | 'findMint' | 'readMint'>>,
): BridgeRail {
  const unused = () => {
    throw new Error('not used by the bridge jobs');
  };
  return {
    id: 'cctp',
    lanes: [],
    supports: () => true,
    quote: unused,
    readAllowance: unused,
    buildBurn: unused,
    readBurn: unused,
    readAttestation: answers.readAttestation ?? unused,
    buildMint: unused,
    readMint: answers.readMint ?? unused,
    ...(answers.findMint ? { findMint: answers.findMint } : {}),
  };
}
