/**
 * Given-when-then specs of the search run decider at three clocks: at T0 (w1's lease is live), at
 * the lease's end, and a millisecond before it.
 */
import { specFor, testContext } from './given-when-then';
import { searchRunDecider } from '../search-run/search-run.decider';
import { LEASE_END } from './search-run.fixtures';

export const spec = specFor(searchRunDecider); // now = T0: w1's lease is live
export const expired = specFor(searchRunDecider, () => testContext(LEASE_END)); // now >= lease_until
export const almost = specFor(searchRunDecider, () => testContext('2026-01-01T00:00:14.999Z'));
