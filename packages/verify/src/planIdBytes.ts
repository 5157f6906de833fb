/** The 16 bytes of a `plan_<32 hex>` id (how every chain's leg tags its plan), or undefined. */
export function planIdBytes(planId: string): Uint8Array | undefined {
  const match = /^plan_([0-9a-f]{32})$/.exec(planId);
  if (!match?.[1]) return undefined;
  const hex = match[1];
  return Uint8Array.from({ length: 16 }, (_, index) =>
    Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16),
  );
}

/** Lower-case hex of bytes, no prefix. */
export const toHex = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, index) => byte === b[index]);
