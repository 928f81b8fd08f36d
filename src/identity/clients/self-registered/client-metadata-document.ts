import { ClientMetadataError, readClientMetadata, type ClientMetadata, type ClientMetadataRules } from './client-metadata';

const DOCUMENT_RULES: ClientMetadataRules = { authMethods: ['none', 'private_key_jwt'], defaultAuthMethod: 'none', jwksUri: true };

/**
 * A client ID metadata document (draft-ietf-oauth-client-id-metadata-document §4): a JSON object
 * whose `client_id` is the URL it was fetched from, exactly, with no shared secret in it.
 */
export function readClientMetadataDocument(url: string, document: unknown): ClientMetadata {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ClientMetadataError('invalid_client_metadata', 'the client metadata document must be a JSON object');
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== url) throw new ClientMetadataError('invalid_client_metadata', "the document's client_id is not its URL");
  if (Object.keys(fields).some((name) => name === 'client_secret' || name === 'client_secret_expires_at')) {
    throw new ClientMetadataError('invalid_client_metadata', 'a client metadata document must not contain a client_secret');
  }
  const method = fields.token_endpoint_auth_method;
  if (typeof method === 'string' && method.startsWith('client_secret')) {
    throw new ClientMetadataError('invalid_client_metadata', 'a client metadata document must not use a client_secret method');
  }
  return readClientMetadata(document, DOCUMENT_RULES);
}
