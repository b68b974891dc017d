export { domainOf, normalizeUrl, onDomain } from './url-key';
export { absoluteUrl, domainMatches, hostOf, mirroredUrl, normalizeDomain, siteKey } from './address';
