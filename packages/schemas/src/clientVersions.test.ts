import { clientVersionStatus, compareSemver, isSemver } from './clientVersions';

it('orders versions by semver precedence', () => {
  const ordered = [
    '0.9.9',
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
    '1.2.0',
    '1.10.0',
  ];
  for (let index = 1; index < ordered.length; index += 1) {
    expect(compareSemver(ordered[index - 1] as string, ordered[index] as string)).toBeLessThan(0);
    expect(compareSemver(ordered[index] as string, ordered[index - 1] as string)).toBeGreaterThan(
      0,
    );
  }
  expect(compareSemver('1.0.0+build.7', '1.0.0')).toBe(0);
  expect(() => compareSemver('1.0', '1.0.0')).toThrow(RangeError);
  expect(['1.0', 'v1.0.0', '01.0.0', '1.0.0-', ''].some(isSemver)).toBe(false);
});

it('tells a client where it stands', () => {
  const policy = { latestVersion: '1.3.0', minSupportedVersion: '1.1.0', install: null };
  expect(clientVersionStatus(policy, '1.0.9')).toMatchObject({
    belowMinimum: true,
    updateAvailable: true,
    upToDate: false,
  });
  expect(clientVersionStatus(policy, '1.1.0')).toMatchObject({
    belowMinimum: false,
    updateAvailable: true,
  });
  expect(clientVersionStatus(policy, '1.3.0')).toMatchObject({ upToDate: true });
});
