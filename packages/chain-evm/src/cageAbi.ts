// The YieldCage interface the adapter encodes and reads (contracts/YieldCage.sol; a test checks
// every entry against the compiled contract).
const addressArg = <const Name extends string>(name: Name) => ({ name, type: 'address' }) as const;
const planIdArg = { name: 'planId', type: 'bytes16' } as const;
const assetsArg = { name: 'assets', type: 'uint256' } as const;
const action = <const Inputs extends readonly { name: string; type: string }[]>(
  name: string,
  inputs: Inputs,
) => ({ type: 'function', name, stateMutability: 'nonpayable', inputs, outputs: [] }) as const;

/** A policy, as `setPolicy` takes it (after the plan id) and `policyOf` returns it. */
const policyFields = [
  { name: 'enabled', type: 'bool' },
  { name: 'skimBps', type: 'uint16' },
  addressArg('agent'),
  { name: 'venues', type: 'address[]' },
  { name: 'payees', type: 'address[]' },
] as const;

export const cageAbi = [
  action('route', [planIdArg, addressArg('owner'), addressArg('venue'), assetsArg]),
  action('exit', [
    planIdArg,
    addressArg('owner'),
    addressArg('venue'),
    assetsArg,
    addressArg('to'),
  ]),
  action('rebalance', [
    planIdArg,
    addressArg('owner'),
    addressArg('fromVenue'),
    addressArg('toVenue'),
    assetsArg,
  ]),
  action('harvest', [
    planIdArg,
    addressArg('owner'),
    addressArg('venue'),
    assetsArg,
    addressArg('to'),
  ]),
  action('compound', [
    planIdArg,
    addressArg('owner'),
    addressArg('venue'),
    assetsArg,
    addressArg('to'),
  ]),
  action('autopay', [
    planIdArg,
    addressArg('owner'),
    addressArg('venue'),
    addressArg('payee'),
    assetsArg,
  ]),
  action('setPolicy', [planIdArg, ...policyFields]),
  {
    type: 'function',
    name: 'policyOf',
    stateMutability: 'view',
    inputs: [addressArg('owner')],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: policyFields,
      },
    ],
  },
  {
    type: 'function',
    name: 'asset',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'treasury',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'paused',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'function',
    name: 'assetsOf',
    stateMutability: 'view',
    inputs: [addressArg('owner'), addressArg('venue')],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'principalOf',
    stateMutability: 'view',
    inputs: [addressArg('owner'), addressArg('venue')],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'event',
    name: 'ActionExecuted',
    anonymous: false,
    inputs: [
      { name: 'planId', type: 'bytes16', indexed: true },
      { name: 'owner', type: 'address', indexed: true },
      { name: 'action', type: 'uint8', indexed: true },
      { name: 'venue', type: 'address', indexed: false },
      { name: 'destination', type: 'address', indexed: false },
      { name: 'assets', type: 'uint256', indexed: false },
      { name: 'skim', type: 'uint256', indexed: false },
    ],
  },
] as const;
