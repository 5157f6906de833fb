import { isIP } from 'node:net';
import { isPublicAddress } from './isPublicAddress';

/** Where a webhook may point. */
export interface WebhookUrlPolicy {
  /** Allow `http:` (development and tests only); otherwise `https:` is required. */
  readonly allowInsecure: boolean;
  /**
   * Allow private, loopback and link-local addresses and local host names (development and
   * tests only, e.g. a receiver on 127.0.0.1).
   */
  readonly allowPrivate: boolean;
  /**
   * Ports a public target may use besides 443 and 80 (SVC_WEBHOOK_ALLOWED_PORTS). Private
   * targets (allowed only in development and tests) may use any port.
   */
  readonly allowedPorts?: readonly number[];
}

export type ValidateWebhookUrlReturnType =
  | {
      readonly ok: true;
      readonly url: URL;
      /** The host without IPv6 brackets or a trailing dot. */
      readonly host: string;
      /** True when the host is an IP literal (nothing to resolve). */
      readonly isAddress: boolean;
    }
  | { readonly ok: false; readonly reason: string };

const MAX_URL_LENGTH = 2048;
const WEB_PORTS = [443, 80];

// Names that only mean something inside a network: never a public receiver.
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.lan', '.intranet'];

/**
 * Checks a webhook target URL as written, without DNS: `https:` (or `http:` when
 * `allowInsecure`), no credentials, and, unless `allowPrivate`, port 443 or 80 (or one of
 * `allowedPorts`) and an IP literal that is public
 * (see {@link isPublicAddress}) or a host name that is not local (`localhost`, single-label
 * names such as `metadata`, `*.local`, `*.internal` such as `metadata.google.internal`, …).
 * Numeric host spellings (`0x7f.1`, `2130706433`, `[::ffff:7f00:1]`) are normalized by the URL
 * parser first, so they are judged as the address they are. Host names are judged again after
 * DNS by {@link resolveWebhookUrl}.
 *
 * @example
 * validateWebhookUrl('https://hooks.example.com/svc', { allowInsecure: false, allowPrivate: false });
 * // { ok: true, url, host: 'hooks.example.com', isAddress: false }
 * validateWebhookUrl('http://169.254.169.254/', { allowInsecure: true, allowPrivate: false });
 * // { ok: false, reason: 'points to a private, loopback, link-local or reserved address' }
 */
export function validateWebhookUrl(
  raw: string,
  policy: WebhookUrlPolicy,
): ValidateWebhookUrlReturnType {
  if (raw.length > MAX_URL_LENGTH) {
    return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(policy.allowInsecure && url.protocol === 'http:')) {
    return {
      ok: false,
      reason: policy.allowInsecure ? 'must use https or http' : 'must use https',
    };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not contain credentials' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (!host) return { ok: false, reason: 'must have a host' };
  const isAddress = isIP(host) !== 0;
  if (!policy.allowPrivate) {
    if (isAddress && !isPublicAddress(host)) {
      return {
        ok: false,
        reason: 'points to a private, loopback, link-local or reserved address',
      };
    }
    if (!isAddress && isLocalName(host)) {
      return { ok: false, reason: 'points to a local host name' };
    }
    // url.port is '' for the scheme's default port.
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (!WEB_PORTS.includes(port) && !(policy.allowedPorts ?? []).includes(port)) {
      return {
        ok: false,
        reason: `must use port 443 or 80 (or one of SVC_WEBHOOK_ALLOWED_PORTS), not ${port}`,
      };
    }
  }
  return { ok: true, url, host, isAddress };
}

function isLocalName(host: string): boolean {
  return (
    !host.includes('.') ||
    host === 'localhost.localdomain' ||
    LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))
  );
}
