// Two workers: the API suites spend most of their time waiting (PostgreSQL, Redis, anvil and the
// other beds, quote-source timeouts, the keeper's watch), and jest's default on a 2-core machine
// (cores − 1) runs every file in one process, leaving a core idle. Each file has its own
// database, Redis prefix, beds and ports, so files never share state across workers.
/** @type {import('jest').Config} */
module.exports = { ...require('@yieldrouter/jest-preset'), maxWorkers: 2 };
