import { IsIn } from 'class-validator';
import { IntegerIn, mustBe, validateEnvironment, type Env } from './environment';

export const DYNAMIC_REGISTRATION_MODES = ['off', 'open', 'token'] as const;
export type DynamicRegistrationMode = (typeof DYNAMIC_REGISTRATION_MODES)[number];

/** Clients that register themselves (docs/agents.md). */
export interface AgentsConfig {
  /** `CLIENT_ID_METADATA_DOCUMENTS`: URL client_ids name documents Tollgate fetches. */
  readonly metadataDocuments: boolean;
  /** `CLIENT_METADATA_TIMEOUT_MS`: how long a document fetch may take, at most 5 s. */
  readonly metadataTimeoutMs: number;
  /** `DYNAMIC_REGISTRATION`: RFC 7591 registration off, open to anyone, or with an initial access token. */
  readonly dynamicRegistration: DynamicRegistrationMode;
  /** `DYNAMIC_CLIENT_EXPIRY_DAYS`: a registered client unused this long is removed. */
  readonly dynamicClientExpiryDays: number;
  /** `RATE_LIMIT_REGISTRATIONS`: registration requests per address per `RATE_LIMIT_WINDOW_SECONDS`; 0 = off. */
  readonly registrationsPerAddress: number;
  /** `RATE_LIMIT_METADATA_DOCUMENTS`: documents fetched for the first time per address per `RATE_LIMIT_WINDOW_SECONDS`; 0 = off. */
  readonly metadataDocumentsPerAddress: number;
}

/** The variables of docs/agents.md, each optional. */
export class AgentsEnvironment {
  @IsIn(['on', 'off'], mustBe('"on" or "off"')) CLIENT_ID_METADATA_DOCUMENTS?: 'on' | 'off';
  @IntegerIn(100, 5000) CLIENT_METADATA_TIMEOUT_MS?: number;
  @IsIn(DYNAMIC_REGISTRATION_MODES, mustBe('"off", "open" or "token"')) DYNAMIC_REGISTRATION?: DynamicRegistrationMode;
  @IntegerIn(1, 3650) DYNAMIC_CLIENT_EXPIRY_DAYS?: number;
  @IntegerIn(0, 1_000_000) RATE_LIMIT_REGISTRATIONS?: number;
  @IntegerIn(0, 1_000_000) RATE_LIMIT_METADATA_DOCUMENTS?: number;
}

export function readAgentsConfig(env: Env, problems: string[]): AgentsConfig {
  const { variables: v, problems: refused } = validateEnvironment(AgentsEnvironment, env);
  problems.push(...refused);
  return {
    metadataDocuments: (v.CLIENT_ID_METADATA_DOCUMENTS ?? 'on') === 'on',
    metadataTimeoutMs: v.CLIENT_METADATA_TIMEOUT_MS ?? 5000,
    dynamicRegistration: v.DYNAMIC_REGISTRATION ?? 'off',
    dynamicClientExpiryDays: v.DYNAMIC_CLIENT_EXPIRY_DAYS ?? 30,
    registrationsPerAddress: v.RATE_LIMIT_REGISTRATIONS ?? 20,
    metadataDocumentsPerAddress: v.RATE_LIMIT_METADATA_DOCUMENTS ?? 20,
  };
}
