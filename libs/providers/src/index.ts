export * from './search-provider.port';
export { SearchProviderHttpError } from './http-json';
export { SearxngSearchProvider, type SearxngSearchProviderOptions } from './searxng.search-provider';
export { BraveSearchProvider, type BraveSearchProviderOptions } from './brave.search-provider';
