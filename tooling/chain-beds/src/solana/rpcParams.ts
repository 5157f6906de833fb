import { PublicKey } from '@solana/web3.js';
import { invalidParams } from './rpcError';

/** The JSON object at `params[index]`, or an empty one when absent (configs are optional). */
export function configParam(params: readonly unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParams(`expected a config object at position ${index}`);
  }
  return value as Record<string, unknown>;
}

/** The string at `params[index]`. */
export function stringParam(params: readonly unknown[], index: number, name: string): string {
  const value = params[index];
  if (typeof value !== 'string') throw invalidParams(`${name} must be a string`);
  return value;
}

/** A base58 public key at `params[index]`, canonical. */
export function pubkeyParam(params: readonly unknown[], index: number, name: string): string {
  const text = stringParam(params, index, name);
  try {
    return new PublicKey(text).toBase58();
  } catch {
    throw invalidParams(`${name} is not a valid public key`);
  }
}

/** The account data encoding a caller asked for (nodes default to base58 for account reads). */
export function encodingOf(config: Record<string, unknown>, fallback: string): string {
  const encoding = config['encoding'];
  return typeof encoding === 'string' ? encoding : fallback;
}
