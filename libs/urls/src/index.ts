export { domainOf, normalizeUrl, onDomain, TRACKING_PARAMS } from './url-key';
export { absoluteUrl, CLICK_PARAMS, domainMatches, hostOf, mirroredUrl, normalizeDomain, siteKey } from './address';
