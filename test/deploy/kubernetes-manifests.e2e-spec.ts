/* eslint-disable @typescript-eslint/no-explicit-any -- the specs walk parsed YAML of arbitrary shape */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * deploy/kubernetes: every object validates against the Kubernetes schemas (offline, with
 * kubernetes-models), and the pieces agree with each other and with the service's settings
 * (docs/operations.md#kubernetes).
 */
const ROOT = join(__dirname, '../../deploy/kubernetes');

/** kubernetes-models' schema validation, in a node process of its own (validate-kubernetes.mjs). */
function validate(objects: readonly object[]): { kind: string; name: string; error?: string }[] {
  const output = execFileSync(process.execPath, [join(__dirname, 'validate-kubernetes.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(output);
}

type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; [key: string]: any };

interface Kustomization {
  resources: string[];
  configMapGenerator?: { name: string; literals: string[] }[];
  [key: string]: any;
}

/** The YAML documents of `file`, read as `T` (Kubernetes objects unless said otherwise). */
function documents<T = Manifest>(file: string): T[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((document) => {
    expect(document.errors).toEqual([]);
    return document.toJS() as T;
  });
}

/** The objects a kustomization lists, following bases, and the ConfigMap literals it generates (merged down the overlays). */
function build(directory: string): { objects: Manifest[]; config: Record<string, string> } {
  const [kustomization] = documents<Kustomization>(join(directory, 'kustomization.yaml'));
  const objects: Manifest[] = [];
  let config: Record<string, string> = {};
  for (const resource of kustomization.resources) {
    const path = join(directory, resource);
    if (resource.endsWith('.yaml')) objects.push(...documents(path));
    else {
      const base = build(path);
      objects.push(...base.objects);
      config = { ...config, ...base.config };
    }
  }
  for (const generator of kustomization.configMapGenerator ?? []) {
    for (const literal of generator.literals) {
      const at = literal.indexOf('=');
      config[literal.slice(0, at)] = literal.slice(at + 1);
    }
  }
  return { objects, config };
}

const find = (objects: Manifest[], kind: string, name: string) => {
  const object = objects.find((candidate) => candidate.kind === kind && candidate.metadata.name === name);
  if (!object) throw new Error(`no ${kind} ${name}`);
  return object;
};

describe.each([['base'], ['overlays/example']])('deploy/kubernetes/%s', (directory) => {
  const { objects, config } = build(join(ROOT, directory));
  const deployment = find(objects, 'Deployment', 'tollgate');
  const pod = deployment.spec.template.spec;
  const container = pod.containers.find((candidate: { name: string }) => candidate.name === 'tollgate');

  it('lists only files that exist, every one of them', () => {
    const listed = documents<Kustomization>(join(ROOT, directory, 'kustomization.yaml'))[0].resources.filter((resource) => resource.endsWith('.yaml'));
    expect(listed.sort()).toEqual(
      readdirSync(join(ROOT, directory))
        .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
        .sort(),
    );
  });

  it('validates every object against the Kubernetes schemas, and would catch an invalid one', () => {
    expect(objects.length).toBeGreaterThanOrEqual(6);
    const broken = structuredClone(deployment);
    broken.spec.replicas = 'two';
    const badPort = structuredClone(find(objects, 'Service', 'tollgate'));
    badPort.spec.ports[0].port = 'eighty';
    const results = validate([...objects, broken, badPort]);
    expect(results.slice(0, objects.length)).toEqual(objects.map((object) => ({ kind: object.kind, name: object.metadata.name })));
    expect(results.slice(objects.length)).toEqual([
      { kind: 'Deployment', name: 'tollgate', error: expect.stringContaining('replicas') },
      { kind: 'Service', name: 'tollgate', error: expect.stringContaining('port') },
    ]);
  });

  it('probes readiness and liveness on the health endpoints and requests resources', () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
    expect(container.startupProbe.httpGet.path).toBe('/health/ready');
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits.memory).toBeDefined();
  });

  it('sleeps in preStop exactly SHUTDOWN_DRAIN_SECONDS, within a grace period that covers sleep, drain and in-flight requests', () => {
    const drain = Number(config.SHUTDOWN_DRAIN_SECONDS);
    expect(drain).toBeGreaterThan(0);
    expect(container.lifecycle.preStop.exec.command).toEqual(['sleep', String(drain)]);
    // The service waits at most 10 s for in-flight requests after its drain (docs/operations.md).
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(drain + drain + 10);
  });

  it('takes secrets by reference only, and runs as a non-root user with a read-only root', () => {
    const env: { name: string; value?: string; valueFrom?: any }[] = container.env;
    for (const name of ['DATABASE_URL', 'KEY_ENCRYPTION_KEY']) {
      expect(env.find((variable) => variable.name === name)).toEqual({ name, valueFrom: { secretKeyRef: expect.objectContaining({ name: 'tollgate' }) } });
    }
    for (const variable of env) expect(variable.value).toBeUndefined();
    expect(Object.keys(config)).not.toEqual(expect.arrayContaining(['DATABASE_URL', 'KEY_ENCRYPTION_KEY']));
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
  });

  it('serves the public Service on the http port and metrics on METRICS_PORT through a Service of their own', () => {
    const ports = Object.fromEntries(container.ports.map((port: { name: string; containerPort: number }) => [port.name, port.containerPort]));
    expect(ports).toEqual({ http: 5000, metrics: Number(config.METRICS_PORT) });
    expect(find(objects, 'Service', 'tollgate').spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    expect(find(objects, 'Service', 'tollgate-metrics').spec.ports).toEqual([{ name: 'metrics', port: Number(config.METRICS_PORT), targetPort: 'metrics' }]);
  });

  it('keeps a pod through voluntary disruptions and scales the Deployment between two and more replicas', () => {
    const labels = deployment.spec.template.metadata.labels;
    const pdb = find(objects, 'PodDisruptionBudget', 'tollgate');
    expect(pdb.spec.minAvailable).toBe(1);
    expect(labels).toMatchObject(pdb.spec.selector.matchLabels);
    expect(labels).toMatchObject(deployment.spec.selector.matchLabels);
    const hpa = find(objects, 'HorizontalPodAutoscaler', 'tollgate');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'tollgate' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
  });

  it('advertises an https issuer, as production requires', () => {
    expect(config.ISSUER).toMatch(/^https:\/\//);
    expect(config.SEED_DEMO).toBeUndefined();
  });
});

describe('deploy/kubernetes/overlays/example: a workload using workload identity', () => {
  const { objects, config } = build(join(ROOT, 'overlays/example'));

  it('projects a service-account token whose audience is the issuer, short-lived', () => {
    const pod = find(objects, 'Deployment', 'reports').spec.template.spec;
    expect(pod.serviceAccountName).toBe('reports');
    const sources = pod.volumes.flatMap((volume: { projected?: { sources: any[] } }) => volume.projected?.sources ?? []);
    const token = sources.find((source: { serviceAccountToken?: unknown }) => source.serviceAccountToken).serviceAccountToken;
    expect(token.audience).toBe(config.ISSUER);
    expect(token.expirationSeconds).toBeLessThanOrEqual(3600);
  });

  it('routes the issuer host to the public Service', () => {
    const ingress = find(objects, 'Ingress', 'tollgate');
    expect(`https://${ingress.spec.rules[0].host}`).toBe(config.ISSUER);
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'tollgate', port: { name: 'http' } });
    expect(config.TRUST_PROXY).toBeDefined();
  });
});
