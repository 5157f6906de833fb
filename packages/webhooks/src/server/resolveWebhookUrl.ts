import { lookup as dnsLookup } from 'node:dns/promises';
import { isPublicAddress } from './isPublicAddress';
import type { WebhookUrlPolicy } from './validateWebhookUrl';
import { validateWebhookUrl } from './validateWebhookUrl';

/** Resolves a host name to every address it has (like `dns.lookup(host, { all: true })`). */
export type WebhookHostLookup = (host: string) => Promise<readonly { readonly address: string }[]>;

export interface ResolveWebhookUrlParameters extends WebhookUrlPolicy {
  /** Default: the system resolver (`dns.lookup`, all addresses). */
  readonly lookup?: WebhookHostLookup;
}

export type ResolveWebhookUrlReturnType =
  { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

const systemLookup: WebhookHostLookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * {@link validateWebhookUrl}, then, for a host name and unless `allowPrivate`, DNS: the name
 * must resolve, and every address it resolves to must be public. Run when a subscription is
 * created and again before every delivery attempt; `deliverWebhook` also checks the addresses
 * as the connection resolves the name, which closes the window between this lookup and the
 * connection (DNS rebinding).
 *
 * @example
 * const target = await resolveWebhookUrl(body.url, { allowInsecure: false, allowPrivate: false });
 * if (!target.ok) throw new Error(`body.url: ${target.reason}`);
 */
export async function resolveWebhookUrl(
  raw: string,
  { lookup = systemLookup, ...policy }: ResolveWebhookUrlParameters,
): Promise<ResolveWebhookUrlReturnType> {
  const checked = validateWebhookUrl(raw, policy);
  if (!checked.ok) return checked;
  if (checked.isAddress || policy.allowPrivate) return { ok: true, url: checked.url };
  let addresses: readonly { readonly address: string }[];
  try {
    addresses = await lookup(checked.host);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      reason: `host does not resolve${typeof code === 'string' ? ` (${code})` : ''}`,
    };
  }
  if (addresses.length === 0) return { ok: false, reason: 'host does not resolve' };
  if (!addresses.every((entry) => isPublicAddress(entry.address))) {
    return {
      ok: false,
      reason: 'host resolves to a private, loopback, link-local or reserved address',
    };
  }
  return { ok: true, url: checked.url };
}
