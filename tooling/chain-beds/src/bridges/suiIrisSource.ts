import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest, normalizeStructTag } from '@mysten/sui/utils';
import { bytesToHex } from 'viem';
import type { Hex } from 'viem';
import type { IrisFakeSource } from './startIrisFake';

/** CCTP's domain for Sui. */
const SUI_DOMAIN = 8;

/**
 * The Iris fake's Sui source: reads a transaction (by digest) from a Sui node's JSON-RPC, as
 * Circle's service reads the chain, and answers the messages its
 * `message_transmitter_v2::send_message::MessageSent` events carry (of the configured package),
 * in order. A digest the node does not know, or a failed transaction, sent nothing.
 *
 * @example
 * const iris = await startIrisFake({ domains: [suiIrisSource({ rpcUrl, messageTransmitterPackage })] });
 */
export function suiIrisSource(parameters: {
  readonly rpcUrl: string;
  readonly messageTransmitterPackage: string;
}): IrisFakeSource {
  const client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: parameters.rpcUrl }),
  });
  const sent = normalizeStructTag(
    `${parameters.messageTransmitterPackage}::send_message::MessageSent`,
  );
  return {
    domain: SUI_DOMAIN,
    isTxId: (digest) => isValidTransactionDigest(digest),
    async readMessages(digest) {
      const tx = await client
        .getTransactionBlock({ digest, options: { showEffects: true, showEvents: true } })
        .catch(() => undefined);
      if (!tx || tx.effects?.status.status !== 'success') return undefined;
      return (tx.events ?? [])
        .filter((event) => normalizeStructTag(event.type) === sent)
        .flatMap((event): Hex[] => {
          const message = (event.parsedJson as { message?: unknown } | undefined)?.message;
          return Array.isArray(message) && message.every((byte) => Number.isInteger(byte))
            ? [bytesToHex(Uint8Array.from(message as number[]))]
            : [];
        });
    },
  };
}
