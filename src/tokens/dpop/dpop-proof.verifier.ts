import { Inject, Injectable } from '@nestjs/common';
import type { Client } from '../../identity/clients/client';
import type { ConfigType } from '../../platform/config/config-slice';
import { issuerConfig } from '../../platform/config/config.slices';
import { OAuthError } from '../../protocol/oauth-error';
import { DPOP_SIGNING_ALGORITHMS, type VerifiedDpopProof } from './dpop-proof';
import { DpopProofValidator } from './dpop-proof.validator';

/** The `DPoP` header as Node hands it over. */
export type DpopHeader = string | string[] | undefined;

/** `algs` of the DPoP challenge (RFC 9449 §7.1). */
export const DPOP_ALGS = DPOP_SIGNING_ALGORITHMS.join(' ');

/**
 * The endpoints' view of DPoP (docs/dpop.md): the proof of a token request, optional unless the
 * client must send one, and the proof of a resource request, checked against the access token.
 */
@Injectable()
export class DpopProofVerifier {
  constructor(
    @Inject(DpopProofValidator) private readonly validator: Pick<DpopProofValidator, 'verify'>,
    @Inject(issuerConfig.KEY) private readonly config: ConfigType<typeof issuerConfig>,
  ) {}

  /** RFC 9449 §5: the proof at the token endpoint; undefined when none was sent and the client may do without. */
  async forTokenRequest(header: DpopHeader, client: Client): Promise<VerifiedDpopProof | undefined> {
    if (header === undefined) {
      if (client.requireDpop) throw new OAuthError('invalid_dpop_proof', 'this client must send a DPoP proof');
      return undefined;
    }
    return this.validator.verify({ proof: single(header), method: 'POST', url: `${this.config.issuer}/connect/token` });
  }

  /** RFC 9449 §10.1: the proof sent with a pushed authorization request; undefined when none was sent. */
  async forPushedRequest(header: DpopHeader): Promise<VerifiedDpopProof | undefined> {
    if (header === undefined) return undefined;
    return this.validator.verify({ proof: single(header), method: 'POST', url: `${this.config.issuer}/connect/par` });
  }

  /** RFC 9449 §7: the proof of a request to one of this service's resources (`path`), for `accessToken`. */
  async forResource(header: DpopHeader, method: string, path: string, accessToken: string): Promise<VerifiedDpopProof> {
    if (header === undefined) throw new OAuthError('invalid_dpop_proof', 'a DPoP proof is required with a DPoP-bound access token');
    return this.validator.verify({ proof: single(header), method, url: `${this.config.issuer}${path}`, accessToken });
  }
}

/** RFC 9449 §4.3 item 1: exactly one DPoP header. */
function single(header: string | string[]): string {
  if (Array.isArray(header) || header.includes(',')) throw new OAuthError('invalid_dpop_proof', 'more than one DPoP proof was sent');
  return header;
}
