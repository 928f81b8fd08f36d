import { ClientSecretEntity } from '../clients/persistence/client-secret.entity';
import { ClientEntity } from '../clients/persistence/client.entity';
import { SigningKeyEntity } from '../keys/persistence/signing-key.entity';
import { ApiResourceEntity, IdentityResourceEntity } from '../resources/persistence/resource.entities';
import { UserEntity } from '../users/persistence/user.entity';

export const entities = [ClientEntity, ClientSecretEntity, UserEntity, IdentityResourceEntity, ApiResourceEntity, SigningKeyEntity];
