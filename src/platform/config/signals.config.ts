import { IntegerIn, validateEnvironment, type Env } from './environment';

/** Back-channel logout and Shared Signals delivery (docs/signals.md#delivery). */
export interface SignalsConfig {
  /** `SIGNALS_DELIVERY_INTERVAL_MS`: how often each instance looks for due deliveries; the first retry waits as long, doubling to 5 minutes. */
  readonly deliveryIntervalMs: number;
  /** `SIGNALS_DELIVERY_TIMEOUT_MS`: how long one delivery (connect, send, answer) may take. */
  readonly deliveryTimeoutMs: number;
}

export class SignalsEnvironment {
  @IntegerIn(20, 60_000) SIGNALS_DELIVERY_INTERVAL_MS?: number;
  @IntegerIn(100, 30_000) SIGNALS_DELIVERY_TIMEOUT_MS?: number;
}

export function readSignalsConfig(env: Env, problems: string[]): SignalsConfig {
  const { variables: v, problems: refused } = validateEnvironment(SignalsEnvironment, env);
  problems.push(...refused);
  return { deliveryIntervalMs: v.SIGNALS_DELIVERY_INTERVAL_MS ?? 2000, deliveryTimeoutMs: v.SIGNALS_DELIVERY_TIMEOUT_MS ?? 5000 };
}
