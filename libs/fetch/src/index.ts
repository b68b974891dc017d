export * from './fetcher.port';
export * from './address-policy';
export * from './guarded-agent';
export * from './decode-body';
export * from './page-cache';
export * from './host-queue';
export * from './http-fetcher';
