// Local EVM bed: anvil, the bed's Solidity fixtures, and helpers to deploy and drive them.
export * from './anvilAccounts';
export * from './anvilBinaryPath';
export * from './anvilChain';
export * from './compileContracts';
export * from './deployEvmFixtures';
export * from './startAnvil';
export * from './startEvmBed';
export * from './deployCctpPair';
export * from './deployCheatingBeds';
