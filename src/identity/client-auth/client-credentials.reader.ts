import { parseBasicCredentials, type ClientCredentials } from '../../protocol/basic-credentials';
import { singleParameter, type FormBody } from '../../protocol/form';
import { OAuthError } from '../../protocol/oauth-error';

/**
 * Finds the client's credentials in the Authorization header (client_secret_basic) or the body
 * (client_secret_post). Using both at once is refused (RFC 6749 §2.3.1: only one method per request).
 */
export function readClientCredentials(authorization: string | undefined, body: FormBody): ClientCredentials | undefined {
  const basic = parseBasicCredentials(authorization);
  const postedId = singleParameter(body, 'client_id');
  const postedSecret = singleParameter(body, 'client_secret');
  if (basic) {
    if (postedSecret !== undefined) throw OAuthError.invalidRequest('more than one client authentication method was used');
    if (postedId !== undefined && postedId !== basic.clientId) throw OAuthError.invalidRequest('client_id does not match the Authorization header');
    return basic;
  }
  if (postedId === undefined || postedId.length === 0) return undefined;
  if (postedSecret === undefined) return undefined;
  return { clientId: postedId, clientSecret: postedSecret, method: 'client_secret_post' };
}
