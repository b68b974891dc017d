/** The cluster's services and how many processes each runs (`REPLICAS`): read by scripts/cluster.ts and the test harness. */
export const SERVICES = [
  'projector',
  'search',
  'research',
  'findall',
  'monitors',
  'extraction',
  'webhooks',
  'gateway',
] as const;

/**
 * `REPLICAS=research=2,monitors=2`: processes per service (default 1 each), so takeover and
 * exactly-once can be exercised across OS processes. Gateway replica i listens on PORT + i - 1
 * (`gateway=2`: PORT and PORT + 1), as pods behind a load balancer would.
 */
export function parseReplicas(raw: string | undefined): Map<string, number> {
  const counts = new Map<string, number>(SERVICES.map((service) => [service, 1]));
  for (const entry of (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+)=(\d+)$/.exec(entry);
    if (!match) throw new Error(`REPLICAS: "${entry}" is not service=count (e.g. research=2)`);
    const [, service, count] = match;
    if (!(SERVICES as readonly string[]).includes(service!))
      throw new Error(`REPLICAS: unknown service "${service}"; one of ${SERVICES.join(', ')}`);
    const n = Number(count);
    if (n < 1 || n > 16) throw new Error(`REPLICAS: ${service} must run 1 to 16 replicas, got ${n}`);
    counts.set(service!, n);
  }
  return counts;
}
