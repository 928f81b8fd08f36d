import type { FastifyRequest } from 'fastify';
import { hasNulCharacter, isFormBody, type FormBody } from '../../protocol/form';
import { OAuthError } from '../../protocol/oauth-error';

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** The request's form body; any other content type is `invalid_request` (docs/endpoints.md#token-endpoint). */
export function requireFormBody(request: FastifyRequest): FormBody {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== FORM_MEDIA_TYPE || !isFormBody(request.body)) {
    throw OAuthError.invalidRequest(`the request body must be ${FORM_MEDIA_TYPE}`);
  }
  if (hasNulCharacter(request.body)) throw OAuthError.invalidRequest('a parameter contains a NUL character');
  return request.body;
}
