// Web Crypto's getRandomValues is one system call per call: about 15 µs each on the service's
// machines, more than the rest of a plan id's work. Ids draw from a pool filled 4 KiB at a time
// (as Node's randomUUID does with its own cache); every byte is used once.
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * `length` fresh bytes from the platform's CSPRNG (Web Crypto), through a pool refilled as it
 * runs out. Each call gets bytes no other call gets.
 *
 * @example
 * pooledRandomBytes(16) // Uint8Array(16) [ 183, 4, … ]
 */
export function pooledRandomBytes(length: number): Uint8Array {
  if (!Number.isInteger(length) || length < 0 || length > POOL_BYTES) {
    throw new RangeError(`pooledRandomBytes: length must be an integer in 0..${POOL_BYTES}`);
  }
  if (offset + length > POOL_BYTES) {
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const bytes = pool.slice(offset, offset + length);
  // The bytes handed out are wiped from the pool, so no later reader of it sees them.
  pool.fill(0, offset, offset + length);
  offset += length;
  return bytes;
}

/**
 * `length` (≥ 6) bytes that sort by creation time: the first 6 are the Unix time in
 * milliseconds, big-endian (as in a UUIDv7), the rest fresh random bytes. Ids made of them land
 * at the right edge of a B-tree index instead of on a random page (index locality).
 */
export function timeOrderedBytes(length: number, now: number = Date.now()): Uint8Array {
  if (!Number.isInteger(length) || length < 6) {
    throw new RangeError('timeOrderedBytes: length must be an integer ≥ 6');
  }
  const bytes = new Uint8Array(length);
  let time = Math.floor(now);
  for (let index = 5; index >= 0; index -= 1) {
    bytes[index] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes.set(pooledRandomBytes(length - 6), 6);
  return bytes;
}
