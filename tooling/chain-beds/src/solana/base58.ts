const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Map([...ALPHABET].map((char, index) => [char, BigInt(index)]));

/**
 * Bitcoin-alphabet base58, the text form of Solana keys and signatures (web3.js keeps its own
 * bs58 private, and the bed declares no extra dependency for it).
 *
 * @example
 * encodeBase58(new Uint8Array(64)); // '1111…' (64 ones)
 */
export function encodeBase58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = ALPHABET.charAt(Number(value % 58n)) + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** Decodes base58 text; undefined when a character is outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = INDEX.get(char);
    if (digit === undefined) return undefined;
    value = value * 58n + digit;
  }
  const body: number[] = [];
  while (value > 0n) {
    body.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  let zeros = 0;
  while (text[zeros] === '1') zeros += 1;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...body]);
}
