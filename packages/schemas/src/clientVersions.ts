import { z } from 'zod';

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A semantic version (semver.org 2.0.0), e.g. `1.2.0` or `1.3.0-beta.1`. */
export const SemverString = z
  .string()
  .max(64)
  .regex(SEMVER, { error: 'must be a semantic version such as 1.0.0' })
  .meta({ description: 'A semantic version (semver.org), e.g. 1.0.0.', examples: ['1.0.0'] });
export type SemverString = z.infer<typeof SemverString>;

/** `?client=<semver>`: the API version a client was built against, to be told where it stands. */
export const ClientVersionQuery = z.strictObject({
  client: SemverString.optional().meta({
    description:
      'The API version your client was built against; the answer then carries `client` (is it up to date, below the minimum).',
  }),
});

/** Where clients stand: the newest API version and the oldest one still served in full. */
export interface ClientVersionPolicy {
  readonly latestVersion: string;
  readonly minSupportedVersion: string;
  /** How to install the latest client (a command), or null when not configured. */
  readonly install: string | null;
}

export const ClientVersionStatus = z.object({
  version: z.string(),
  upToDate: z.boolean().meta({ description: 'At or above latestVersion.' }),
  updateAvailable: z.boolean().meta({ description: 'Below latestVersion.' }),
  belowMinimum: z
    .boolean()
    .meta({ description: 'Below minSupportedVersion: still served in v1, with a warning.' }),
  message: z.string(),
});
export type ClientVersionStatus = z.infer<typeof ClientVersionStatus>;

/** The version fields `/svc/version` and `/svc/sdk` share. */
export const ClientVersionFields = {
  latestVersion: z.string().meta({ description: 'The newest API version (X-SVC-API-Latest).' }),
  minSupportedVersion: z
    .string()
    .meta({ description: 'Clients below it get X-SVC-API-Warning (X-SVC-API-Min).' }),
  install: z.string().nullable().meta({ description: 'How to install the latest client.' }),
  releaseUrl: z.string().nullable().meta({ description: 'Release notes of the latest version.' }),
  repoUrl: z.string().nullable().meta({ description: 'Source repository of the client.' }),
  client: ClientVersionStatus.optional().meta({ description: 'Only with ?client=.' }),
};

function parse(version: string): { core: number[]; pre: string[] } | null {
  const match = SEMVER.exec(version);
  if (!match) return null;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    pre: match[4] === undefined ? [] : match[4].split('.'),
  };
}

function comparePre(left: string[], right: string[]): number {
  // A release ranks above its pre-releases; build metadata never counts (semver.org §10–11).
  if (left.length === 0 || right.length === 0) return right.length - left.length;
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const a = left[index];
    const b = right[index];
    if (a === undefined || b === undefined) return a === undefined ? -1 : 1;
    if (a === b) continue;
    const numericA = /^\d+$/.test(a);
    const numericB = /^\d+$/.test(b);
    if (numericA && numericB) return Number(a) < Number(b) ? -1 : 1;
    if (numericA !== numericB) return numericA ? -1 : 1;
    return a < b ? -1 : 1;
  }
  return 0;
}

/**
 * Semver precedence: negative when `left` is older, 0 when equal, positive when newer.
 * Throws on a string that is not a semantic version.
 *
 * @example
 * compareSemver('1.2.0', '1.10.0') // < 0
 */
export function compareSemver(left: string, right: string): number {
  const a = parse(left);
  const b = parse(right);
  if (!a || !b) throw new RangeError(`not a semantic version: ${a ? right : left}`);
  for (let index = 0; index < 3; index += 1) {
    const difference = (a.core[index] ?? 0) - (b.core[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return comparePre(a.pre, b.pre);
}

/** True for a string `compareSemver` accepts. */
export function isSemver(version: string): boolean {
  return version.length <= 64 && SEMVER.test(version);
}

/** Where a client of `version` stands under the policy, with a message for its user. */
export function clientVersionStatus(
  policy: ClientVersionPolicy,
  version: string,
): ClientVersionStatus {
  const belowMinimum = compareSemver(version, policy.minSupportedVersion) < 0;
  const updateAvailable = compareSemver(version, policy.latestVersion) < 0;
  const install = policy.install ? ` (${policy.install})` : '';
  const message = belowMinimum
    ? `${version} is below the minimum supported version ${policy.minSupportedVersion}: update to ${policy.latestVersion}${install}. v1 still serves it.`
    : updateAvailable
      ? `${policy.latestVersion} is available (you have ${version})${install}.`
      : `${version} is up to date.`;
  return { version, upToDate: !updateAvailable, updateAvailable, belowMinimum, message };
}
