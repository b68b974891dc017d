export * from './contracts';
export * from './health-handler.module';
export * from './health.dto';
export * from './subjects';
export * from './validate';
export * from './extraction.dto';
export * from './search.dto';
export * from './research.dto';
