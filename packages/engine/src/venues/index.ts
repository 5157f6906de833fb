export * from './catalog';
export * from './listOpportunities';
export * from './refreshApy';
export * from './seedVenueCatalog';
export * from './venueConfig';
export * from './discovery';
export * from './opportunitySnapshots';
