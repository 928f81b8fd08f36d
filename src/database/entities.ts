import { RevokedAccessTokenEntity } from '../access-token/persistence/revoked-access-token.entity';
import { ClientSecretEntity } from '../clients/persistence/client-secret.entity';
import { ClientWorkloadIdentityEntity } from '../clients/persistence/client-workload-identity.entity';
import { ClientEntity } from '../clients/persistence/client.entity';
import { SigningKeyEntity } from '../keys/persistence/signing-key.entity';
import { TrustedIssuerEntity } from '../trusted-issuers/persistence/trusted-issuer.entity';
import { RefreshTokenEntity } from '../refresh-tokens/persistence/refresh-token.entity';
import { ApiResourceEntity, IdentityResourceEntity } from '../resources/persistence/resource.entities';
import { UserEntity } from '../users/persistence/user.entity';

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
