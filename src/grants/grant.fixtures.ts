import type { ValidatedAccessToken } from '../tokens/access-token/access-token';
import type { Client } from '../identity/clients/client';
import { DEMO_API_RESOURCES, DEMO_IDENTITY_RESOURCES } from '../demo/demo-data';
import type { FormBody } from '../protocol/form';
import { ResourceCatalog } from '../identity/resources/resource-catalog';
import { readGrantParameters } from '../protocol/grant-parameters';
import type { GrantContext, GrantResult, GrantValidator } from './grant-validator';
import type { AccessTokenValidator } from '../tokens/access-token/access-token.validator';
import type { ExternalSubjectTokenValidator } from '../tokens/subject-tokens/external-subject-token.validator';
import { SubjectTokenValidator } from '../tokens/subject-tokens/subject-token.validator';
import type { User } from '../identity/users/user';

/** Shared by the grant validators' unit specs (not built into dist/). */
export const demoResources = new ResourceCatalog({ identityResources: DEMO_IDENTITY_RESOURCES, apiResources: DEMO_API_RESOURCES });

export function testClient(overrides: Partial<Client> = {}): Client {
  return {
    clientId: 'api1',
    enabled: true,
    allowedGrantTypes: ['delegation'],
    allowedScopes: ['openid', 'profile', 'role', 'api2'],
    accessTokenLifetimeSeconds: 3600,
    refreshTokenLifetimeSeconds: 0,
    secrets: [],
    public: false,
    redirectUris: [],
    postLogoutRedirectUris: [],
    requireConsent: false,
    ...overrides,
  };
}

/** Alice's validated access token as the front end got it (scope openid profile api1). */
export function aliceAccessToken(overrides: Partial<ValidatedAccessToken> = {}): ValidatedAccessToken {
  return {
    jwtId: 'jti-1',
    subject: '1',
    clientId: 'frontend',
    scopes: ['openid', 'profile', 'api1'],
    audiences: ['api1'],
    issuedAt: 1_900_000_000,
    expiresAt: 1_900_000_900,
    authTime: 1_899_999_000,
    authenticationMethods: ['pwd'],
    ...overrides,
  };
}

/** A token request as a grant spec writes it: the form parameters and the rest of the context. */
export interface GrantRequest extends Omit<GrantContext, 'rawParameters' | 'receivedAt' | 'resourceIndicators'> {
  readonly parameters: FormBody;
  readonly receivedAt?: number;
  readonly resourceIndicators?: GrantContext['resourceIndicators'];
}

/** Runs a grant as the token endpoint does: its DTO read and validated from the form, then `validate`. */
export async function submit<P extends object>(
  validator: GrantValidator<P>,
  { parameters, receivedAt = Date.now(), resourceIndicators = [], ...context }: GrantRequest,
): Promise<GrantResult> {
  const dto = readGrantParameters(validator.parameters, parameters, validator.parameterError ?? 'invalid_request');
  return validator.validate(dto, { ...context, receivedAt, resourceIndicators, rawParameters: {} });
}

/**
 * The real `SubjectTokenValidator` over stand-ins: `accessTokens` for our tokens, `external` for trusted
 * issuers' (none by default), and a directory where user '1' is enabled and '2' disabled.
 */
export function subjectTokenValidator(
  accessTokens: Pick<AccessTokenValidator, 'validate'>,
  external: Pick<ExternalSubjectTokenValidator, 'validate'> = { validate: async () => undefined },
): SubjectTokenValidator {
  const users = {
    findBySubjectId: async (subjectId: string) => (subjectId === '1' || subjectId === '2' ? ({ subjectId, enabled: subjectId === '1' } as User) : undefined),
  };
  return new SubjectTokenValidator(accessTokens, external, users);
}
