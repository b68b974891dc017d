/**
 * The configuration file of one node of a NATS cluster with JetStream on one machine (`npm run
 * start:cluster` with NATS_CLUSTER=3, and the tests' three-node cluster). Kubernetes runs the same
 * shape as a StatefulSet (k8s/base/nats.yaml).
 */
export interface NatsNode {
  name: string;
  host: string;
  /** Client port. */
  port: number;
  /** Port the nodes route to each other on. */
  routePort: number;
  /** HTTP monitoring port (/healthz, /connz), when wanted. */
  monitorPort?: number;
}

/**
 * Every node routes to every other; `pingSeconds`: how often a node pings its clients and routes,
 * one that missed three is dropped (a stalled peer stops being routed to after about three pings).
 */
export function natsNodeConfig(node: NatsNode, nodes: readonly NatsNode[], storeDir: string, pingSeconds = 2): string {
  const routes = nodes.filter((n) => n.name !== node.name).map((n) => `"nats-route://${n.host}:${n.routePort}"`);
  return [
    `server_name: ${node.name}`,
    `listen: "${node.host}:${node.port}"`,
    ...(node.monitorPort ? [`http: "${node.host}:${node.monitorPort}"`] : []),
    `ping_interval: "${pingSeconds}s"`,
    'ping_max: 3',
    `jetstream { store_dir: ${JSON.stringify(storeDir)} }`,
    `cluster { name: web-research, listen: "${node.host}:${node.routePort}", routes: [${routes.join(', ')}] }`,
    '',
  ].join('\n');
}
