function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return numerator % denominator !== 0n && numerator < 0n !== denominator < 0n
    ? quotient - 1n
    : quotient;
}

/**
 * Mean of integer bps samples, nulls ignored, rounded half up (towards +∞) exactly. `meanBps` is
 * null when fewer than `minSamples` (and at least one) non-null samples exist; `samples` is the
 * non-null count either way. Throws RangeError for a sample that is not a safe integer.
 */
export function meanBps(
  samples: readonly (number | null)[],
  minSamples: number,
): { meanBps: number | null; samples: number } {
  let sum = 0n;
  let count = 0;
  for (const sample of samples) {
    if (sample === null) continue;
    if (!Number.isSafeInteger(sample)) throw new RangeError('bps samples must be integers');
    sum += BigInt(sample);
    count += 1;
  }
  if (count === 0 || count < minSamples) return { meanBps: null, samples: count };
  const n = BigInt(count);
  return { meanBps: Number(floorDiv(2n * sum + n, 2n * n)), samples: count };
}
