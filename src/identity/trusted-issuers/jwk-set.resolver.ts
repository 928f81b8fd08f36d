import { Injectable } from '@nestjs/common';
import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import { usableJwkSet } from './jwk-set';
import { RemoteJwkSetCache } from './remote-jwk-set.cache';
import type { JwkSetSource } from '../../protocol/jwk-set-source';
import type { TrustedIssuer } from './trusted-issuer';

/** Turns a key source (inline JWK Set or `jwks_uri`) into a `jose` key resolver. */
@Injectable()
export class JwkSetResolver {
  private readonly inline = new WeakMap<object, JWTVerifyGetKey>();

  constructor(private readonly remote: RemoteJwkSetCache) {}

  forIssuer(issuer: TrustedIssuer): JWTVerifyGetKey {
    return this.forSource(issuer.keys, issuer.kind === 'spiffe');
  }

  /** `spiffe` reads the set as a SPIFFE trust bundle (keys with `use: "jwt-svid"`). */
  forSource(source: JwkSetSource, spiffe = false): JWTVerifyGetKey {
    if (source.type === 'remote') return this.remote.keyResolver(source.uri, spiffe);
    let resolver = this.inline.get(source.jwks);
    if (!resolver) {
      try {
        resolver = createLocalJWKSet(usableJwkSet(source.jwks, spiffe).jwks);
      } catch {
        resolver = createLocalJWKSet({ keys: [] });
      }
      this.inline.set(source.jwks, resolver);
    }
    return resolver;
  }
}
