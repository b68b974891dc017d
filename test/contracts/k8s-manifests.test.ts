import { kustomizeBinary, type Manifest, render, validateManifests } from '../support/k8s-manifests';

/**
 * The Kubernetes manifests (k8s/base and its dev and prod overlays), rendered by kustomize and
 * validated offline against the Kubernetes API schemas, then checked for what operating the
 * service needs: probes, resources, graceful shutdown, who scales, who is exposed, who may reach
 * what. A wrong field in any manifest fails `npm test`.
 */
const binary = kustomizeBinary();
const SERVICES = ['search', 'research', 'extraction', 'findall', 'webhooks', 'monitors', 'projector'];
const SCALED = ['gateway', 'search', 'research', 'extraction', 'findall', 'webhooks'];
const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '100.64.0.0/10', '127.0.0.0/8'];

if ('missing' in binary) {
  console.warn(`[skipped] Kubernetes manifests suite: ${binary.missing}`);
}
const suite = 'missing' in binary ? describe.skip : describe;

suite('Kubernetes manifests', () => {
  const kustomize = 'path' in binary ? binary.path : '';
  const overlays: Record<string, Manifest[]> = {};
  beforeAll(() => {
    for (const overlay of ['dev', 'prod']) overlays[overlay] = render(kustomize, overlay);
  });
  const find = (overlay: string, kind: string, name?: string) =>
    overlays[overlay].filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  const one = (overlay: string, kind: string, name: string) => {
    const found = find(overlay, kind, name);
    expect(found).toHaveLength(1);
    return found[0];
  };

  it.each(['dev', 'prod'])(
    '%s renders, and every manifest validates against the Kubernetes schemas, unknown fields included',
    (overlay) => {
      expect(overlays[overlay].length).toBeGreaterThan(20);
      expect(validateManifests(overlays[overlay])).toEqual([]);
    },
  );

  it('the validator fails a misspelt field, a wrong type and a missing required field (so the check above can fail)', () => {
    // One wrong field per manifest: the compiler reports the first excess property of each.
    const deployment = structuredClone(one('prod', 'Deployment', 'search'));
    deployment.spec.template.spec.containers[0].resourcez = deployment.spec.template.spec.containers[0].resources;
    const probe = structuredClone(one('prod', 'Deployment', 'research'));
    probe.spec.template.spec.containers[0].livenessProbe.periodSecond = 10;
    const hpa = structuredClone(one('prod', 'HorizontalPodAutoscaler', 'search'));
    hpa.spec.maxReplicas = 'ten';
    const service = structuredClone(one('prod', 'Service', 'gateway'));
    delete service.spec.ports[0].port;
    const problems = validateManifests([deployment, probe, hpa, service]);
    expect(problems.join('\n')).toMatch(/Deployment\/search: .*'"resourcez"' does not exist/);
    expect(problems.join('\n')).toMatch(/Deployment\/research: .*'"periodSecond"' does not exist in type 'IProbe'/);
    expect(problems.join('\n')).toMatch(/HorizontalPodAutoscaler\/search: .*maxReplicas must be integer/);
    expect(problems.join('\n')).toMatch(/Service\/gateway: .*port/);
  });

  it.each(['dev', 'prod'])(
    '%s: a Deployment per service that serves something, each with probes, resources, graceful shutdown, non-root and a read-only root',
    (overlay) => {
      const deployments = find(overlay, 'Deployment');
      expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['gateway', ...SERVICES].sort());
      for (const d of deployments) {
        const pod = d.spec.template.spec;
        const [container] = pod.containers;
        expect(container.args).toEqual([d.metadata.name]);
        expect(container.resources.requests.cpu).toBeDefined();
        expect(container.resources.requests.memory).toBeDefined();
        expect(container.resources.limits.memory).toBeDefined();
        for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe'])
          expect(container[probe]?.httpGet).toBeDefined();
        const port = d.metadata.name === 'gateway' ? 'http' : 'health';
        expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port });
        expect(container.livenessProbe.httpGet.path).toBe(d.metadata.name === 'gateway' ? '/healthz' : '/livez');
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
        expect(pod.securityContext.runAsNonRoot).toBe(true);
        expect(container.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
        });
        expect(container.envFrom).toEqual([
          { configMapRef: { name: 'web-research-config' } },
          { secretRef: { name: 'web-research-secrets' } },
        ]);
      }
      // Bus services serve their probes on HEALTH_PORT.
      expect(one(overlay, 'ConfigMap', 'web-research-config').data).toMatchObject({
        HEALTH_PORT: '8081',
        BUS: 'nats',
        DATA_DIR: '/data',
      });
    },
  );

  it.each(['dev', 'prod'])(
    '%s: an HPA for the services that scale out; the projector and the scheduler are single, and stay single through a rollout',
    (overlay) => {
      const hpas = find(overlay, 'HorizontalPodAutoscaler');
      expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual([...SCALED].sort());
      for (const h of hpas) {
        expect(h.spec.minReplicas).toBeGreaterThanOrEqual(1);
        expect(h.spec.maxReplicas).toBeGreaterThan(h.spec.minReplicas);
        // Replicas are the HPA's: a Deployment that set them would be reset by every apply.
        expect(one(overlay, 'Deployment', h.spec.scaleTargetRef.name).spec.replicas).toBeUndefined();
      }
      for (const single of ['projector', 'monitors']) {
        expect(one(overlay, 'Deployment', single).spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
      }
    },
  );

  it.each(['dev', 'prod'])(
    '%s: NATS, EventStoreDB and MongoDB run as StatefulSets with storage; the services reach them by name',
    (overlay) => {
      const sets = find(overlay, 'StatefulSet');
      expect(sets.map((s) => s.metadata.name).sort()).toEqual(['eventstore', 'mongodb', 'nats']);
      for (const s of sets) expect(s.spec.volumeClaimTemplates[0].spec.resources.requests.storage).toMatch(/Gi$/);
      const config = one(overlay, 'ConfigMap', 'web-research-config').data!;
      expect(config.NATS_URL.split(',')).toHaveLength(3);
      expect(config.EVENTSTORE_URL).toMatch(/^esdb:\/\/eventstore:2113/);
      expect(config.MONGO_URL).toMatch(/^mongodb:\/\/mongodb:27017\//);
      for (const name of ['nats', 'eventstore', 'mongodb'])
        expect(one(overlay, 'Service', name).spec.type).toBeUndefined();
    },
  );

  it.each(['dev', 'prod'])(
    '%s: NATS is a cluster of three with JetStream: every node routes to every pod of the headless Service, the services are given every node and keep the bucket on three',
    (overlay) => {
      const nats = one(overlay, 'StatefulSet', 'nats');
      expect(nats.spec).toMatchObject({ replicas: 3, serviceName: 'nats-cluster', podManagementPolicy: 'Parallel' });
      const headless = one(overlay, 'Service', 'nats-cluster');
      expect(headless.spec.clusterIP).toBe('None');
      expect(headless.spec.ports).toContainEqual(expect.objectContaining({ port: 6222 }));
      const conf = one(overlay, 'ConfigMap', 'nats-config').data!['nats.conf']!;
      const pods = [0, 1, 2].map((i) => `nats-${i}.nats-cluster`);
      for (const pod of pods) expect(conf).toContain(`nats-route://${pod}:6222`);
      expect(conf).toMatch(/jetstream \{ store_dir: \/data \}/);
      expect(conf).toMatch(/server_name: \$POD_NAME/);
      const container = nats.spec.template.spec.containers[0];
      expect(container.env).toContainEqual({
        name: 'POD_NAME',
        valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
      });
      const config = one(overlay, 'ConfigMap', 'web-research-config').data!;
      expect(config.NATS_URL.split(',')).toEqual(pods.map((pod) => `nats://${pod}:4222`));
      expect(config.NATS_REPLICAS).toBe('3');
      expect(one(overlay, 'PodDisruptionBudget', 'nats').spec.maxUnavailable).toBe(1);
      // The nodes reach each other's route port, and only they do.
      const routes = one(overlay, 'NetworkPolicy', 'nats-routes').spec;
      expect(routes.ingress).toEqual([
        { from: [{ podSelector: { matchLabels: { app: 'nats' } } }], ports: [{ protocol: 'TCP', port: 6222 }] },
      ]);
    },
  );

  it('only the gateway is exposed: a NodePort in dev, an Ingress in prod; every other Service is cluster-internal', () => {
    expect(one('dev', 'Service', 'gateway').spec.type).toBe('NodePort');
    for (const overlay of ['dev', 'prod']) {
      for (const s of find(overlay, 'Service').filter((s) => s.metadata.name !== 'gateway'))
        expect(s.spec.type ?? 'ClusterIP').toBe('ClusterIP');
    }
    const ingresses = find('prod', 'Ingress');
    expect(ingresses).toHaveLength(1);
    const backends = ingresses[0].spec.rules.flatMap((r: any) => r.http.paths.map((p: any) => p.backend.service.name));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    expect(find('dev', 'Ingress')).toHaveLength(0);
  });

  it.each(['dev', 'prod'])(
    '%s: network policies deny by default; internet egress only for extraction, webhooks, search and research, never to private ranges',
    (overlay) => {
      const policies = find(overlay, 'NetworkPolicy');
      const deny = policies.find((p) => p.metadata.name === 'default-deny')!;
      expect(deny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
      const internet = policies.find((p) => p.metadata.name === 'internet-egress')!;
      const selector = internet.spec.podSelector.matchLabels;
      const withInternet = find(overlay, 'Deployment')
        .filter((d) => Object.entries(selector).every(([k, v]) => d.spec.template.metadata.labels[k] === v))
        .map((d) => d.metadata.name)
        .sort();
      expect(withInternet).toEqual(['extraction', 'research', 'search', 'webhooks']);
      const v4 = internet.spec.egress[0].to.find((t: any) => t.ipBlock?.cidr === '0.0.0.0/0').ipBlock;
      for (const range of PRIVATE) expect(v4.except).toContain(range);
      const v6 = internet.spec.egress[0].to.find((t: any) => t.ipBlock?.cidr === '::/0').ipBlock;
      expect(v6.except).toEqual(expect.arrayContaining(['fc00::/7', 'fe80::/10', '::1/128']));
      // No other policy opens egress beyond the namespace's own pods and DNS.
      for (const p of policies.filter((p) => p.metadata.name !== 'internet-egress')) {
        for (const rule of p.spec.egress ?? []) for (const to of rule.to ?? []) expect(to.ipBlock).toBeUndefined();
      }
      // Ingress from outside the namespace reaches only the gateway's port (and the probe ports).
      const open = policies.filter((p) => (p.spec.ingress ?? []).some((rule: any) => !rule.from));
      expect(open.map((p) => p.metadata.name).sort()).toEqual(['gateway-ingress', 'infrastructure-ingress', 'probes']);
      expect(policies.find((p) => p.metadata.name === 'gateway-ingress')!.spec.ingress).toEqual([
        { ports: [{ protocol: 'TCP', port: 8080 }] },
      ]);
    },
  );

  it.each(['dev', 'prod'])(
    '%s: the extraction pod (it runs the headless browser) is non-root with no service account token, and reaches only NATS, EventStoreDB, DNS and the public internet',
    (overlay) => {
      const pod = one(overlay, 'Deployment', 'extraction').spec.template;
      expect(pod.spec.securityContext.runAsNonRoot).toBe(true);
      expect(pod.spec.securityContext.runAsUser).toBeGreaterThan(0);
      expect(pod.spec.automountServiceAccountToken).toBe(false);
      // No read store: the MongoDB URL of the shared ConfigMap is blanked for this pod.
      expect(pod.spec.containers[0].env).toContainEqual({ name: 'MONGO_URL', value: '' });
      const labels: Record<string, string> = pod.metadata.labels;
      const selects = (selector: any): boolean =>
        Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
        (selector.matchExpressions ?? []).every((e: any) =>
          e.operator === 'In'
            ? e.values.includes(labels[e.key])
            : e.operator === 'NotIn'
              ? !e.values.includes(labels[e.key])
              : false,
        );
      const egress = find(overlay, 'NetworkPolicy')
        .filter((p) => p.spec.policyTypes.includes('Egress') && selects(p.spec.podSelector))
        .flatMap((p) => p.spec.egress ?? []);
      const pods = egress.flatMap((rule: any) =>
        (rule.to ?? [])
          .filter((t: any) => t.podSelector)
          .map((t: any) => ({
            app: t.podSelector.matchLabels.app ?? t.podSelector.matchLabels['k8s-app'],
            ports: rule.ports,
          })),
      );
      expect(pods.map((p: any) => p.app).sort()).toEqual(['eventstore', 'kube-dns', 'nats']);
      expect(pods.find((p: any) => p.app === 'kube-dns').ports).toEqual([
        { protocol: 'UDP', port: 53 },
        { protocol: 'TCP', port: 53 },
      ]);
      expect(pods.find((p: any) => p.app === 'nats').ports).toEqual([{ protocol: 'TCP', port: 4222 }]);
      expect(pods.find((p: any) => p.app === 'eventstore').ports).toEqual([{ protocol: 'TCP', port: 2113 }]);
      const blocks = egress.flatMap((rule: any) =>
        (rule.to ?? []).filter((t: any) => t.ipBlock).map((t: any) => t.ipBlock),
      );
      expect(blocks.map((b: any) => b.cidr).sort()).toEqual(['0.0.0.0/0', '::/0']);
      for (const range of PRIVATE) expect(blocks.find((b: any) => b.cidr === '0.0.0.0/0').except).toContain(range);
      // Every egress rule names where it goes: none is open to everything.
      for (const rule of egress) expect(rule.to?.length).toBeGreaterThan(0);
    },
  );

  it('secrets: dev generates its own Secret; prod ships none (created out of band), and no manifest carries a key in its ConfigMap', () => {
    expect(find('dev', 'Secret', 'web-research-secrets')).toHaveLength(1);
    expect(find('prod', 'Secret')).toHaveLength(0);
    for (const overlay of ['dev', 'prod'])
      expect(Object.keys(one(overlay, 'ConfigMap', 'web-research-config').data!)).not.toContain('SECRETS_KEY');
    expect(one('prod', 'Deployment', 'gateway').spec.template.spec.containers[0].image).toMatch(
      /^registry\.example\.com\/web-research:\d+\.\d+\.\d+$/,
    );
  });
});
