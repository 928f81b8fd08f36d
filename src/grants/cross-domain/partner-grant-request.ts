import { OAuthError, type GrantContext, type PartnerAuthorizationServer } from '../../index';
import { stringList } from './cross-domain';

/** Whom a JWT authorization grant is for: a partner authorization server, our client's id there, and which of its resources. */
export interface PartnerGrantTarget {
  readonly partner: PartnerAuthorizationServer;
  /** The requesting client's `client_id` at the partner. */
  readonly clientId: string;
  readonly resources: readonly string[];
}

/** The RFC 8693 `audience` of a grant request: exactly one, the partner's issuer identifier. */
export function partnerAudience(rawParameters: GrantContext['rawParameters']): string {
  const audience = stringList(rawParameters.audience) ?? [];
  if (audience.length === 0) throw OAuthError.invalidRequest("audience is required: the partner authorization server's issuer identifier");
  if (audience.length > 1) throw OAuthError.invalidTarget('a JWT authorization grant has one audience: the partner authorization server');
  return audience[0];
}

/**
 * docs/chaining.md#issuing-grants-for-partner-authorization-servers: the partner must be registered, know the requesting client, and serve
 * every requested `resource`; otherwise `invalid_target` (RFC 8693 §2.2.2).
 */
export function partnerGrantTarget(
  partner: PartnerAuthorizationServer | undefined,
  audience: string,
  clientId: string,
  rawParameters: GrantContext['rawParameters'],
): PartnerGrantTarget {
  const shown = audience.slice(0, 200);
  if (!partner) throw OAuthError.invalidTarget(`${shown} is not a registered partner authorization server`);
  const idThere = partner.clientIds[clientId];
  if (idThere === undefined) throw OAuthError.invalidTarget(`the client may not request grants for ${shown}`);
  const resources = stringList(rawParameters.resource) ?? [];
  const unserved = resources.find((resource) => !partner.resources.includes(resource));
  if (unserved !== undefined) throw OAuthError.invalidTarget(`${shown} does not serve resource ${unserved.slice(0, 200)}`);
  return { partner, clientId: idThere, resources: [...new Set(resources)] };
}
