// With FC_SEED set (CI sets it from the commit, `.ci/run`), every property test of the run takes
// that seed unless it names its own: a commit's CI run is reproducible, the same cases each time,
// and each commit explores its own. Unset (a developer's run): fast-check's random seed. A
// failing case prints its seed and path either way; keep it as an `examples` entry.
const seed = process.env['FC_SEED'];
if (seed) {
  let fc;
  try {
    // The package under test's fast-check, the instance its test files import.
    fc = require(require.resolve('fast-check', { paths: [process.cwd()] }));
  } catch {
    fc = undefined; // a package without property tests
  }
  fc?.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
}
