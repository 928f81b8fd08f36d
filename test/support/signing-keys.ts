import { createPrivateKey, type KeyObject } from 'node:crypto';
import { resolveKeyEncryptionKeyring } from '../../src/platform/key-encryption/key-encryption-key';
import { openPrivateKey } from '../../src/platform/key-encryption/private-key-sealing';
import { sql, testConfig } from './create-test-app';

/**
 * The service's private key `kid`, for tests that sign tokens as the service would. Private keys
 * are sealed at rest under the test servers' key-encryption key (testConfig()), opened here the same way.
 */
export async function servicePrivateKey(kid: string): Promise<KeyObject> {
  const [row] = await sql<{ private_key: string }>('SELECT private_key FROM signing_keys WHERE kid = $1', [kid]);
  if (!row) throw new Error(`no signing key ${kid}`);
  const keyring = await resolveKeyEncryptionKeyring(testConfig(), () => undefined);
  return createPrivateKey(openPrivateKey(row.private_key, kid, keyring).pem);
}
