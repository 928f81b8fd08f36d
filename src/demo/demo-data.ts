import type { ApiResource } from '../identity/resources/resource';
import { DEMO_PUBLIC_KEYS } from './demo-keys';

/** docs/demo-data.md. The secrets and passwords are public: applied only on request or embedded. */
/** The standard identity resources the demo uses; every database has them (migrations/1764500000000-StandardIdentityResources.ts). */
export const DEMO_IDENTITY_RESOURCES = [
  { name: 'openid', claimTypes: ['sub'] },
  {
    name: 'profile',
    claimTypes: [
      'name',
      'family_name',
      'given_name',
      'middle_name',
      'nickname',
      'preferred_username',
      'profile',
      'picture',
      'website',
      'gender',
      'birthdate',
      'zoneinfo',
      'locale',
      'updated_at',
    ],
  },
  { name: 'email', claimTypes: ['email', 'email_verified'] },
  { name: 'role', claimTypes: ['role'] },
];

/**
 * Each API is served by the client of the same name (docs/demo-data.md): API 1 → API 2 → API 3.
 * `notes` is the MCP server of examples/mcp-server (docs/mcp-example.md), which calls API 2 for the user; its scope is
 * open to self-registered clients (docs/agents.md).
 */
export const DEMO_API_RESOURCES: readonly ApiResource[] = [
  { name: 'api1', scopes: ['api1'], servingClientId: 'api1' },
  { name: 'api2', scopes: ['api2'], servingClientId: 'api2' },
  { name: 'api3', scopes: ['api3'] },
  { name: 'notes', scopes: ['notes'], uri: 'http://127.0.0.1:5180/mcp', servingClientId: 'notes-mcp', openToSelfRegistered: true },
];

export const DEMO_USERS = [
  {
    subjectId: '1',
    username: 'alice',
    password: 'alice',
    roles: ['admin', 'user'],
    claims: { name: 'Alice Smith', given_name: 'Alice', family_name: 'Smith', preferred_username: 'alice', email: 'alice@example.com', email_verified: true },
  },
  {
    subjectId: '2',
    username: 'bob',
    password: 'bob',
    roles: ['user'],
    claims: { name: 'Bob Jones', given_name: 'Bob', family_name: 'Jones', preferred_username: 'bob' },
  },
];

export interface DemoClient {
  readonly clientId: string;
  /** Shown on the consent page. */
  readonly clientName: string;
  readonly secret?: string;
  readonly grantTypes: readonly string[];
  readonly scopes: readonly string[];
  /** private_key_jwt: its JWK Set. */
  readonly jwks?: { readonly keys: readonly object[] };
  /** A workload identity of a demo workload issuer (docs/workload-identity.md). */
  readonly workloadIdentity?: { readonly issuer: string; readonly subject: string };
  /** A public client (no secret, `none`). */
  readonly public?: boolean;
  readonly redirectUris?: readonly string[];
  readonly postLogoutRedirectUris?: readonly string[];
  readonly requireConsent?: boolean;
  /** May obtain transaction tokens (docs/transaction-tokens.md). */
  readonly transactionTokens?: boolean;
  /** OpenID Connect Back-Channel Logout 1.0 (docs/signals.md). */
  readonly backchannelLogoutUri?: string;
}

export const DEMO_CLIENTS: readonly DemoClient[] = [
  {
    clientId: 'frontend',
    clientName: 'Demo Frontend',
    secret: 'frontend-secret',
    grantTypes: ['password', 'refresh_token'],
    scopes: ['openid', 'profile', 'email', 'role', 'api1', 'offline_access'],
  },
  {
    clientId: 'api1',
    clientName: 'Demo API 1',
    secret: 'api1-secret',
    grantTypes: ['delegation', 'urn:ietf:params:oauth:grant-type:token-exchange'],
    scopes: ['openid', 'profile', 'role', 'api2'],
  },
  {
    // The second hop of a delegation chain: API 2 calls API 3 for the user (docs/delegation.md). It is also a
    // Shared Signals receiver: its client_credentials token with `ssf` manages its stream (docs/signals.md).
    clientId: 'api2',
    clientName: 'Demo API 2',
    secret: 'api2-secret',
    grantTypes: ['delegation', 'urn:ietf:params:oauth:grant-type:token-exchange', 'client_credentials'],
    scopes: ['openid', 'profile', 'api3', 'ssf'],
  },
  { clientId: 'm2m', clientName: 'Demo Machine Client', secret: 'm2m-secret', grantTypes: ['client_credentials'], scopes: ['api1', 'api2'] },
  {
    clientId: 'gateway',
    clientName: 'Demo API Gateway',
    secret: 'gateway-secret',
    grantTypes: ['urn:ietf:params:oauth:grant-type:token-exchange'],
    scopes: ['openid', 'api1', 'api2'],
    transactionTokens: true,
  },
  { clientId: 'batch', clientName: 'Demo Batch Job', grantTypes: ['client_credentials'], scopes: ['api1', 'api2'], jwks: { keys: [DEMO_PUBLIC_KEYS.batch] } },
  {
    clientId: 'reports',
    clientName: 'Demo Reports Workload',
    grantTypes: ['client_credentials'],
    scopes: ['api2'],
    workloadIdentity: { issuer: 'https://kubernetes.demo.example', subject: 'system:serviceaccount:default:reports' },
  },
  {
    clientId: 'ledger',
    clientName: 'Demo Ledger Workload',
    grantTypes: ['client_credentials'],
    scopes: ['api2'],
    workloadIdentity: { issuer: 'spiffe://demo.example', subject: 'spiffe://demo.example/ns/default/sa/ledger' },
  },
  {
    // A browser app: public (no secret), first-party (no consent screen). docs/browser-sign-in.md
    clientId: 'spa',
    clientName: 'Demo Single-Page App',
    public: true,
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'profile', 'email', 'role', 'api1', 'offline_access'],
    redirectUris: ['http://127.0.0.1:5173/callback', 'http://localhost:5173/callback'],
    postLogoutRedirectUris: ['http://127.0.0.1:5173/'],
  },
  {
    // A server-side web app of a third party: confidential, asks the user's consent.
    clientId: 'webapp',
    clientName: 'Demo Web App',
    secret: 'webapp-secret',
    // Token exchange: its user's ID token for an ID-JAG to the partner's authorization server (docs/chaining.md).
    grantTypes: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:token-exchange'],
    scopes: ['openid', 'profile', 'email', 'api1', 'offline_access'],
    redirectUris: ['http://127.0.0.1:5174/callback'],
    postLogoutRedirectUris: ['http://127.0.0.1:5174/'],
    requireConsent: true,
    backchannelLogoutUri: 'http://127.0.0.1:5174/backchannel-logout',
  },
  {
    // The MCP server of examples/mcp-server: exchanges the user's token for one addressed to API 2 (docs/mcp-example.md).
    clientId: 'notes-mcp',
    clientName: 'Demo Notes MCP Server',
    secret: 'notes-mcp-secret',
    grantTypes: ['urn:ietf:params:oauth:grant-type:token-exchange'],
    scopes: ['openid', 'profile', 'api2'],
  },
  {
    // An MCP client (an agent) registered in advance: public, asks the user's consent. docs/mcp-example.md
    clientId: 'mcp-client',
    clientName: 'Demo MCP Client',
    public: true,
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'profile', 'notes', 'offline_access'],
    redirectUris: ['http://127.0.0.1:5181/callback'],
    requireConsent: true,
  },
  {
    // A device without a browser (RFC 8628): the user approves it on the verification page. docs/device-authorization.md
    clientId: 'tv',
    clientName: 'Demo TV',
    public: true,
    grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
    scopes: ['openid', 'profile', 'api1', 'offline_access'],
    requireConsent: true,
  },
  {
    // An agent of another company's domain: redeems ID-JAGs of the enterprise identity provider (docs/chaining.md).
    clientId: 'enterprise-agent',
    clientName: 'Demo Enterprise Agent',
    secret: 'enterprise-agent-secret',
    grantTypes: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
    scopes: ['openid', 'profile', 'api1', 'notes'],
  },
];

/** Workload issuers (docs/workload-identity.md): assertions signed with the `demo-workloads` key. */
export const DEMO_TRUSTED_ISSUERS = [
  { issuer: 'https://kubernetes.demo.example', role: 'workload', kind: 'kubernetes', jwks: { keys: [DEMO_PUBLIC_KEYS['demo-workloads']] } },
  { issuer: 'spiffe://demo.example', role: 'workload', kind: 'spiffe', jwks: { keys: [DEMO_PUBLIC_KEYS['demo-workloads']] } },
  // docs/delegation.md: tokens of the demo identity provider, exchanged by api1.
  {
    issuer: 'https://idp.demo.example',
    role: 'subject',
    kind: 'jwt',
    jwks: { keys: [DEMO_PUBLIC_KEYS['demo-idp']] },
    subject: { audience: 'api1', userClaim: 'email', identityScopes: ['openid', 'profile'], trustedBy: ['api1'] },
  },
  // docs/chaining.md: JWT authorization grants and ID-JAGs of the enterprise identity provider, redeemed by enterprise-agent.
  {
    issuer: 'https://enterprise-idp.demo.example',
    role: 'authorization-grant',
    kind: 'jwt',
    jwks: { keys: [DEMO_PUBLIC_KEYS['demo-idp']] },
    authorizationGrant: { userClaim: 'email', identityScopes: ['openid', 'profile'], maxLifetimeSeconds: 300, trustedBy: ['enterprise-agent'] },
  },
];

/** Partner authorization servers that webapp and api1 request grants for (docs/chaining.md#issuing-grants-for-partner-authorization-servers). */
export const DEMO_PARTNER_AUTHORIZATION_SERVERS = [
  {
    issuer: 'https://as.partner.demo.example',
    resources: ['https://api.partner.demo.example/'],
    clientIds: { webapp: 'webapp-at-partner', api1: 'api1-at-partner' },
  },
];
