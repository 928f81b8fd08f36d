import type { TrustedIssuer } from './trusted-issuer';

/** Where trusted issuers are stored; also the DI token. */
export abstract class TrustedIssuerRepository {
  abstract findByIssuer(issuer: string): Promise<TrustedIssuer | undefined>;
}
