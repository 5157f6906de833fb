export * from './catalog';
export * from './listOpportunities';
export * from './refreshApy';
export * from './seedVenueCatalog';
export * from './venueConfig';
