export { domainOf, normalizeUrl, onDomain } from './url-key';
export { absoluteUrl, domainMatches, hostOf, mirroredUrl, normalizeDomain, siteKey } from './address';
export { MAX_URL_CHARS, parseRobots, productToken, ROBOTS_BOUNDS, robotsCache, type RobotsRules } from './robots';
