import { RevokedAccessTokenEntity } from '../../tokens/access-token/persistence/revoked-access-token.entity';
import { ClientSecretEntity } from '../../identity/clients/persistence/client-secret.entity';
import { ClientWorkloadIdentityEntity } from '../../identity/clients/persistence/client-workload-identity.entity';
import { ClientEntity } from '../../identity/clients/persistence/client.entity';
import { SigningKeyEntity } from '../../tokens/keys/persistence/signing-key.entity';
import { TrustedIssuerEntity } from '../../identity/trusted-issuers/persistence/trusted-issuer.entity';
import { RefreshTokenEntity } from '../../tokens/refresh-tokens/persistence/refresh-token.entity';
import { ApiResourceEntity, IdentityResourceEntity } from '../../identity/resources/persistence/resource.entities';
import { UserEntity } from '../../identity/users/persistence/user.entity';

export const entities = [
  ClientEntity,
  ClientSecretEntity,
  ClientWorkloadIdentityEntity,
  UserEntity,
  IdentityResourceEntity,
  ApiResourceEntity,
  SigningKeyEntity,
  RefreshTokenEntity,
  RevokedAccessTokenEntity,
  TrustedIssuerEntity,
];
