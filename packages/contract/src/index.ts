export * from './duels';
export * from './errors';
export * from './models';
export * from './stream-events';
