import type { ClientView, KeySummary, ResourceView, TrustedIssuerView, UserView } from './inventory';

/** Rows under a header, columns padded to their widest cell; control characters shown as `?`. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  return `${cells
    .map((row) =>
      row
        .map((value, column) => (column === row.length - 1 ? value : value.padEnd(widths[column])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** `name: value` lines, names aligned; a list value continues on indented lines. */
export function formatFields(fields: readonly (readonly [string, string | readonly string[]])[]): string {
  const width = Math.max(...fields.map(([name]) => name.length)) + 1;
  const lines = fields.map(([name, value]) => {
    const [first = '-', ...more] = typeof value === 'string' ? [value] : value;
    return [`${`${name}:`.padEnd(width)} ${cell(first)}`.trimEnd(), ...more.map((line) => `  ${cell(line)}`)].join('\n');
  });
  return `${lines.join('\n')}\n`;
}

export const CLIENT_TABLE = {
  header: ['CLIENT_ID', 'NAME', 'ENABLED', 'AUTHENTICATION', 'GRANTS', 'SCOPES'],
  row: (client: ClientView) => [
    client.clientId,
    client.clientName ?? '-',
    yesNo(client.enabled),
    client.authentication,
    list(client.grantTypes, ','),
    list(client.scopes),
  ],
};

export function showClient(client: ClientView): string {
  const secrets = client.secrets.map(
    (secret) =>
      `${secret.id} (${secret.description ?? 'no description'}; created ${secret.createdAt}; ${secret.expiresAt ? `expires ${secret.expiresAt}` : 'no expiry'})`,
  );
  return formatFields([
    ['client_id', client.clientId],
    ['client_name', client.clientName ?? '- (the consent page shows the client id)'],
    ['enabled', yesNo(client.enabled)],
    ['authentication', client.authentication],
    ['grant types', list(client.grantTypes, ', ')],
    ['scopes', list(client.scopes)],
    ['redirect URIs', list(client.redirectUris)],
    ['post-logout redirect URIs', list(client.postLogoutRedirectUris)],
    ['consent required', yesNo(client.requireConsent)],
    ['PAR required', yesNo(client.requirePushedAuthorizationRequests)],
    ['DPoP required', yesNo(client.requireDpop)],
    ['passkey sign-in required', yesNo(client.requirePhr)],
    ['access token lifetime', `${client.accessTokenLifetimeSeconds} s`],
    ['refresh token lifetime', `${client.refreshTokenLifetimeSeconds} s`],
    ['may_act', client.mayActClientId ?? '-'],
    ['transaction tokens', yesNo(client.transactionTokens)],
    ['jwks_uri', client.jwksUri ?? '-'],
    ['JWK Set', keys(client.jwks)],
    ['workload identities', client.workloadIdentities.map(({ issuer, subject }) => `${subject} (${issuer})`).join(', ') || '-'],
    ['back-channel logout', backchannelLogout(client)],
    ['secrets', secrets],
    ['created', client.createdAt],
  ]);
}

/** OpenID Connect Back-Channel Logout 1.0 (docs/signals.md): the URI, and whether the client registered that it needs `sid`. */
function backchannelLogout({ backchannelLogoutUri: uri, backchannelLogoutSessionRequired: sessionRequired }: ClientView): string {
  if (uri === null) return '-';
  return sessionRequired ? `${uri} (session required)` : uri;
}

export const RESOURCE_TABLE = {
  header: ['NAME', 'KIND', 'ENABLED', 'SCOPES', 'SERVED_BY', 'URI', 'CLAIMS', 'SELF_REGISTERED'],
  row: (resource: ResourceView) => [
    resource.name,
    resource.kind,
    yesNo(resource.enabled),
    list(resource.scopes),
    resource.servedBy ?? '-',
    resource.uri ?? '-',
    list(resource.claims),
    // docs/agents.md: identity scopes are always open to self-registered clients.
    resource.kind === 'identity' ? '-' : resource.openToSelfRegistered ? 'open' : 'closed',
  ],
};

export function showResource(resource: ResourceView): string {
  return formatFields([
    ['name', resource.name],
    ['kind', resource.kind === 'api' ? 'API resource (the aud of tokens with its scopes)' : 'identity resource'],
    ['enabled', yesNo(resource.enabled)],
    ['scopes', list(resource.scopes)],
    ...(resource.kind === 'identity'
      ? ([['claims', list(resource.claims)]] as const)
      : ([
          ['resource URI', resource.uri ?? '-'],
          ['served by', resource.servedBy ?? '- (the client whose id is the resource name)'],
          ['self-registered', resource.openToSelfRegistered ? 'open: self-registered clients may request its scopes' : 'closed'],
        ] as const)),
  ]);
}

export const ISSUER_TABLE = {
  header: ['ISSUER', 'ROLE', 'KIND', 'ENABLED', 'KEYS'],
  row: (issuer: TrustedIssuerView) => [
    issuer.issuer,
    issuer.role,
    issuer.kind,
    yesNo(issuer.enabled),
    issuer.role === 'partner' ? '-' : (issuer.jwksUri ?? `${issuer.jwks?.length ?? 0} inline`),
  ],
};

export function showIssuer(issuer: TrustedIssuerView): string {
  return formatFields([
    ['issuer', issuer.issuer],
    ['role', issuer.role],
    ['kind', issuer.kind],
    ['enabled', yesNo(issuer.enabled)],
    ['description', issuer.description ?? '-'],
    ['jwks_uri', issuer.jwksUri ?? '-'],
    ['JWK Set', keys(issuer.jwks)],
    ...(issuer.role === 'subject'
      ? ([
          ['audience', issuer.subjectAudience ?? '-'],
          ['user claim', issuer.subjectUserClaim ?? '-'],
          ['identity scopes', list(issuer.subjectIdentityScopes)],
          ['trusted by', list(issuer.trustedBy, ', ')],
        ] as const)
      : []),
    ...(issuer.authorizationGrant
      ? ([
          ['user claim', issuer.authorizationGrant.userClaim],
          ['identity scopes', list(issuer.authorizationGrant.identityScopes)],
          ['maximum lifetime', `${issuer.authorizationGrant.maxLifetimeSeconds} s`],
          ['trusted by', list(issuer.trustedBy, ', ')],
        ] as const)
      : []),
    ...(issuer.partner
      ? ([
          ['resources', list(issuer.partner.resources, ', ')],
          [
            'clients',
            list(
              Object.entries(issuer.partner.clientIds).map(([ours, there]) => `${ours} (${there} there)`),
              ', ',
            ),
          ],
        ] as const)
      : []),
    ['created', issuer.createdAt],
  ]);
}

export const USER_TABLE = {
  header: ['USERNAME', 'SUBJECT', 'ENABLED', 'ROLES', 'PASSKEYS'],
  row: (user: UserView) => [user.username, user.subjectId, yesNo(user.enabled), list(user.roles, ','), String(user.passkeys)],
};

export function showUser(user: UserView): string {
  return formatFields([
    ['username', user.username],
    ['subject', user.subjectId],
    ['enabled', yesNo(user.enabled)],
    ['roles', list(user.roles, ', ')],
    ['passkeys', String(user.passkeys)],
    ...Object.entries(user.claims).map(([claim, value]) => [`claim ${claim}`, typeof value === 'string' ? value : JSON.stringify(value)] as const),
    ['updated', user.updatedAt],
  ]);
}

function keys(summaries: readonly KeySummary[] | null): string {
  if (!summaries) return '-';
  return summaries.map((key) => [key.kid ?? '(no kid)', key.kty, key.alg].filter((part) => part !== null).join(' ')).join(', ') || '(no keys)';
}

function list(values: readonly string[], separator = ' '): string {
  return values.length === 0 ? '-' : values.join(separator);
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

// A terminal must not interpret a stored value (escape sequences), nor a value break a line.
function cell(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return value.replace(/[\x00-\x1f\x7f\u0080-\u009f]/g, '?');
}
