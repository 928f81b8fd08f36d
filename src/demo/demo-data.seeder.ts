import type { DataSource, EntityManager } from 'typeorm';
import { hashClientSecret } from '../identity/clients/client-secret.verifier';
import { PasswordHasher } from '../identity/users/password.hasher';
import { DEMO_API_RESOURCES, DEMO_CLIENTS, DEMO_PARTNER_AUTHORIZATION_SERVERS, DEMO_TRUSTED_ISSUERS, DEMO_USERS } from './demo-data';

/** Inserts the demo data set (the identity resources come with the base schema, migrations/); rows that exist are left as they are, so a restart changes nothing. */
export async function seedDemoData(dataSource: DataSource): Promise<void> {
  const hasher = new PasswordHasher();
  const users = await Promise.all(DEMO_USERS.map(async (user) => ({ ...user, passwordHash: await hasher.hash(user.password) })));
  await dataSource.transaction(async (manager) => {
    for (const api of DEMO_API_RESOURCES) {
      // A demo database from before serving clients existed gets them; a value already set is kept.
      await manager.query(
        `INSERT INTO api_resources (name, scopes, resource_uri, serving_client_id, open_to_self_registered) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (name) DO UPDATE SET serving_client_id = EXCLUDED.serving_client_id
         WHERE api_resources.serving_client_id IS NULL AND EXCLUDED.serving_client_id IS NOT NULL`,
        [api.name, api.scopes, api.uri ?? null, api.servingClientId ?? null, api.openToSelfRegistered === true],
      );
    }
    for (const user of users) {
      await manager.query(
        `INSERT INTO users (subject_id, username, password_hash, claims, roles, updated_at)
         VALUES ($1, $2, $3, $4, $5, '2026-01-01T00:00:00Z') ON CONFLICT DO NOTHING`,
        [user.subjectId, user.username, user.passwordHash, JSON.stringify(user.claims), user.roles],
      );
    }
    for (const trusted of DEMO_TRUSTED_ISSUERS) {
      const subject = 'subject' in trusted ? trusted.subject : undefined;
      await manager.query(
        `INSERT INTO trusted_issuers (issuer, role, kind, jwks, description, subject_audience, subject_user_claim, subject_identity_scopes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [
          trusted.issuer,
          trusted.role,
          trusted.kind,
          JSON.stringify(trusted.jwks),
          `demo ${trusted.role} issuer`,
          subject?.audience ?? null,
          subject?.userClaim ?? null,
          subject?.identityScopes ?? [],
        ],
      );
    }
    for (const client of DEMO_CLIENTS) {
      await manager.query(
        `INSERT INTO clients (client_id, allowed_grant_types, allowed_scopes, transaction_tokens, jwks, public_client, redirect_uris, post_logout_redirect_uris, require_consent, client_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
        [
          client.clientId,
          client.grantTypes,
          client.scopes,
          client.transactionTokens === true,
          client.jwks ? JSON.stringify(client.jwks) : null,
          client.public ?? false,
          client.redirectUris ?? [],
          client.postLogoutRedirectUris ?? [],
          client.requireConsent ?? false,
          client.clientName,
        ],
      );
      // A demo database seeded before clients had names (or back-channel logout) gets them too.
      await manager.query('UPDATE clients SET client_name = $2 WHERE client_id = $1 AND client_name IS NULL', [client.clientId, client.clientName]);
      if (client.backchannelLogoutUri) {
        await manager.query('UPDATE clients SET backchannel_logout_uri = $2 WHERE client_id = $1 AND backchannel_logout_uri IS NULL', [
          client.clientId,
          client.backchannelLogoutUri,
        ]);
      }
      if (client.secret) {
        await manager.query(`INSERT INTO client_secrets (client_id, value_hash, description) VALUES ($1, $2, 'demo secret') ON CONFLICT DO NOTHING`, [
          client.clientId,
          hashClientSecret(client.secret),
        ]);
      }
      if (client.workloadIdentity) {
        await manager.query('INSERT INTO client_workload_identities (issuer, subject, client_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
          client.workloadIdentity.issuer,
          client.workloadIdentity.subject,
          client.clientId,
        ]);
      }
    }
    for (const trusted of DEMO_TRUSTED_ISSUERS) {
      for (const clientId of ('subject' in trusted ? trusted.subject?.trustedBy : undefined) ?? []) {
        await manager.query('INSERT INTO client_subject_issuers (client_id, issuer) VALUES ($1, $2) ON CONFLICT DO NOTHING', [clientId, trusted.issuer]);
      }
    }
    await seedCrossDomainData(manager);
  });
}

/** docs/chaining.md: the authorization-grant issuer's settings and the partner authorization server; webapp's token-exchange grant on a database seeded before. */
async function seedCrossDomainData(manager: EntityManager): Promise<void> {
  for (const trusted of DEMO_TRUSTED_ISSUERS) {
    const policy = 'authorizationGrant' in trusted ? trusted.authorizationGrant : undefined;
    if (!policy) continue;
    await manager.query(
      `INSERT INTO authorization_grant_issuers (issuer, user_claim, identity_scopes, max_lifetime_seconds) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [trusted.issuer, policy.userClaim, policy.identityScopes, policy.maxLifetimeSeconds],
    );
    for (const clientId of policy.trustedBy) {
      await manager.query('INSERT INTO client_authorization_grant_issuers (client_id, issuer) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        clientId,
        trusted.issuer,
      ]);
    }
  }
  for (const partner of DEMO_PARTNER_AUTHORIZATION_SERVERS) {
    await manager.query(`INSERT INTO partner_authorization_servers (issuer, resources, description) VALUES ($1, $2, 'demo partner') ON CONFLICT DO NOTHING`, [
      partner.issuer,
      partner.resources,
    ]);
    for (const [clientId, partnerClientId] of Object.entries(partner.clientIds)) {
      await manager.query(
        'INSERT INTO partner_authorization_server_clients (issuer, client_id, partner_client_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [partner.issuer, clientId, partnerClientId],
      );
    }
  }
  const tokenExchange = 'urn:ietf:params:oauth:grant-type:token-exchange';
  await manager.query(
    `UPDATE clients SET allowed_grant_types = array_append(allowed_grant_types, $1) WHERE client_id = 'webapp' AND NOT ($1 = ANY (allowed_grant_types))`,
    [tokenExchange],
  );
}
