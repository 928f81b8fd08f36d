import { Module } from '@nestjs/common';
import { AssertionReplayGuard } from '../../identity/client-auth/assertion-replay.guard';
import { ClientAuthModule } from '../../identity/client-auth/client-auth.module';
import type { ConfigType } from '../../platform/config/config-slice';
import { dpopConfig } from '../../platform/config/config.slices';
import { KEY_ENCRYPTION_KEYRING } from '../../platform/key-encryption/key-encryption-key';
import { KeysModule } from '../keys/keys.module';
import type { KeyEncryptionKeyring } from '../../platform/key-encryption/private-key-sealing';
import { DpopNonces } from './dpop-nonce';
import { DPOP_SIGNING_ALGORITHMS } from './dpop-proof';
import { DpopProofValidator, type DpopReplayGuard } from './dpop-proof.validator';
import { DpopProofVerifier } from './dpop-proof.verifier';

/**
 * DPoP (RFC 9449, docs/dpop.md). Proof `jti`s go where client assertions' do (PostgreSQL, Redis in
 * front with REDIS_URL), each under its key's thumbprint, so a proof is used once across instances.
 */
@Module({
  imports: [ClientAuthModule, KeysModule],
  providers: [
    {
      provide: DpopNonces,
      inject: [KEY_ENCRYPTION_KEYRING],
      useFactory: (keyring: KeyEncryptionKeyring) => new DpopNonces(keyring.current.derive('dpop nonce v1')),
    },
    {
      provide: DpopProofValidator,
      inject: [dpopConfig.KEY, AssertionReplayGuard, DpopNonces],
      useFactory: ({ requireNonce }: ConfigType<typeof dpopConfig>, assertions: AssertionReplayGuard, nonces: DpopNonces) =>
        new DpopProofValidator({ algorithms: DPOP_SIGNING_ALGORITHMS, requireNonce }, proofReplays(assertions), nonces),
    },
    DpopProofVerifier,
  ],
  exports: [DpopProofVerifier],
})
export class DpopModule {}

/** The assertion replay record, keyed by the proof key's thumbprint instead of a client id. */
function proofReplays(assertions: AssertionReplayGuard): DpopReplayGuard {
  return { firstUse: (jkt, jti, expiresAt) => assertions.firstUse(`dpop:${jkt}`, jti, expiresAt) };
}
