export * from './datasets';
export * from './duels';
export * from './errors';
export * from './leaderboard';
export * from './models';
export * from './sse-reader';
export * from './stream-events';
export * from './review';
