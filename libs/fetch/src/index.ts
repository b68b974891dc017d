export {
  FetchError,
  type FetchErrorCode,
  type FetchedPage,
  type FetchOptions,
  PAGE_FETCHER,
  type PageFetcher,
} from './fetcher.port';
export { AllowHosts, checkUrl } from './address-policy';
export {
  BlockedAddressError,
  GuardedHttpAgent,
  GuardedHttpsAgent,
  type Resolver,
  systemResolver,
} from './guarded-agent';
export { HttpFetcher, type HttpFetcherOptions, inlineRobotsReader, type RobotsReader } from './http-fetcher';
export { DOCUMENT_TYPES, documentKind, sniffDocument } from './document-type';
export {
  BrowserRenderer,
  type BrowserRendererOptions,
  launchFlags,
  type RenderedPage,
  type RenderHooks,
} from './browser-renderer';
