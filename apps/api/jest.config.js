// Three workers on CI's 2-core machine: the API's suites spend most of their time waiting
// (PostgreSQL, Redis, anvil and the other beds, spawned services, quote-source timeouts, the
// keeper's watch): a file's jest-worker CPU is under half its wall time (339 of 774 s summed over
// the suites), and two workers kept the machine under 1.5 cores once lint and typecheck were
// done. Each file has its own database, Redis prefix, beds and ports, so files never share
// state across workers.
/** @type {import('jest').Config} */
module.exports = { ...require('@yieldrouter/jest-preset'), maxWorkers: 3 };
