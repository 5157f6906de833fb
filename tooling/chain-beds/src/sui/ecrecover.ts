import { getAddress, keccak256, numberToHex, concatHex, hexToBigInt, sliceHex } from 'viem';
import type { Address, Hex } from 'viem';

// secp256k1 public-key recovery (what EVM's ecrecover does), synchronous for the fake's Move
// calls: affine point arithmetic over bigints. A bed helper, not constant-time.

const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const G = {
  x: 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
  y: 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
};
type Point = { x: bigint; y: bigint } | undefined;

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;
function pow(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(base, m);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}
const inverse = (a: bigint, m: bigint) => pow(a, m - 2n, m);

function add(a: Point, b: Point): Point {
  if (!a) return b;
  if (!b) return a;
  if (a.x === b.x && mod(a.y + b.y, P) === 0n) return undefined;
  const slope =
    a.x === b.x
      ? mod(3n * a.x * a.x * inverse(2n * a.y, P), P)
      : mod((b.y - a.y) * inverse(b.x - a.x, P), P);
  const x = mod(slope * slope - a.x - b.x, P);
  return { x, y: mod(slope * (a.x - x) - a.y, P) };
}

function multiply(point: Point, scalar: bigint): Point {
  let result: Point = undefined;
  let addend = point;
  for (let k = mod(scalar, N); k > 0n; k >>= 1n) {
    if (k & 1n) result = add(result, addend);
    addend = add(addend, addend);
  }
  return result;
}

/**
 * The address whose key made `signature` (r ‖ s ‖ v, v 27/28 or 0/1) over `hash`; undefined
 * when the signature is malformed or recovers no point.
 */
export function recoverSigner(hash: Hex, signature: Hex): Address | undefined {
  if (signature.length !== 2 + 130) return undefined;
  const r = hexToBigInt(sliceHex(signature, 0, 32));
  const s = hexToBigInt(sliceHex(signature, 32, 64));
  const v = Number(hexToBigInt(sliceHex(signature, 64, 65)));
  const parity = v >= 27 ? v - 27 : v;
  if (r <= 0n || r >= N || s <= 0n || s >= N || (parity !== 0 && parity !== 1)) return undefined;
  const ySquared = mod(r ** 3n + 7n, P);
  let y = pow(ySquared, (P + 1n) / 4n, P);
  if (mod(y * y, P) !== ySquared) return undefined;
  if (Number(y & 1n) !== parity) y = P - y;
  const e = mod(hexToBigInt(hash), N);
  const rInverse = inverse(r, N);
  const q = add(multiply({ x: r, y }, mod(s * rInverse, N)), multiply(G, mod(-e * rInverse, N)));
  if (!q) return undefined;
  const key = concatHex([numberToHex(q.x, { size: 32 }), numberToHex(q.y, { size: 32 })]);
  return getAddress(sliceHex(keccak256(key), 12));
}
