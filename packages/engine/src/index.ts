export * from './meta/buildEnablement';
export * from './meta/buildPackagesDocument';
export * from './meta/buildStatusDocument';
export * from './chains';
export * from './apy';
export * from './venues';
