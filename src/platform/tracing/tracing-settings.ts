import { ConfigError } from '../config/app.config';
import type { Env } from '../config/environment';

export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface TracingSettings {
  /** How spans go to the collector; the exporter reads the endpoint, headers and timeout from OTEL_EXPORTER_OTLP_* itself. */
  readonly protocol: OtlpProtocol;
  /** `service.name` when OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) names none. */
  readonly defaultServiceName: string;
}

const PROTOCOLS: ReadonlySet<string> = new Set<OtlpProtocol>(['http/protobuf', 'http/json']);

/**
 * Whether traces are exported, read from the standard OpenTelemetry variables (docs/operations.md#tracing).
 * Off unless asked for: OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint with OTEL_TRACES_EXPORTER unset.
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none keep it off whatever else is set. Only OTLP over
 * HTTP is exported; another exporter or protocol is a configuration error, not silently ignored.
 */
export function tracingSettings(env: Env): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (exporters.includes('none')) return undefined;
  const unsupported = exporters.filter((name) => name !== 'otlp');
  if (unsupported.length > 0) {
    throw new ConfigError([
      `OTEL_TRACES_EXPORTER must be otlp or none (Tollgate exports traces over OTLP/HTTP only), not ${unsupported.join(',').slice(0, 60)}`,
    ]);
  }
  const endpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (exporters.length === 0 && endpoint === undefined) return undefined;
  const protocolVariable = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = nonEmpty(env[protocolVariable])?.toLowerCase() ?? 'http/protobuf';
  if (!PROTOCOLS.has(protocol)) {
    throw new ConfigError([`${protocolVariable} must be http/protobuf or http/json (OTLP over HTTP, port 4318), not ${protocol.slice(0, 40)}`]);
  }
  if (endpoint !== undefined && !/^https?:\/\//i.test(endpoint)) {
    throw new ConfigError(['the OTLP endpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT) must be an http or https URL']);
  }
  return { protocol: protocol as OtlpProtocol, defaultServiceName: 'tollgate' };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
