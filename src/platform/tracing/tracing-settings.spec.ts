import { ConfigError } from '../config/app.config';
import { tracingSettings } from './tracing-settings';

describe('tracingSettings', () => {
  it('is off without OTEL_* variables, and with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none whatever else is set', () => {
    expect(tracingSettings({})).toBeUndefined();
    expect(tracingSettings({ OTEL_SERVICE_NAME: 'idp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBeUndefined();
    expect(tracingSettings({ OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' })).toBeUndefined();
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeUndefined();
  });

  it('is on with OTEL_TRACES_EXPORTER=otlp, or with an OTLP endpoint (general or for traces) and no exporter named', () => {
    const on = { protocol: 'http/protobuf', defaultServiceName: 'tollgate' };
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })).toEqual(on);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual(on);
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector/v1/traces', OTEL_SDK_DISABLED: 'false' })).toEqual(on);
  });

  it('exports JSON when asked to, the traces variable before the general one', () => {
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })?.protocol).toBe('http/json');
    const both = { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' };
    expect(tracingSettings(both)?.protocol).toBe('http/json');
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER must be otlp or none'],
    [{ OTEL_TRACES_EXPORTER: 'otlp,console' }, 'not console'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' }, 'must be an http or https URL'],
  ])('refuses %j at startup rather than exporting nothing', (env, message) => {
    expect(() => tracingSettings(env)).toThrow(ConfigError);
    expect(() => tracingSettings(env)).toThrow(message);
  });
});
