export * from './team-pages';
