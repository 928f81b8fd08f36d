import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { SignJWT, type JWTPayload } from 'jose';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/app.factory';
import { startExample, type RunningExample } from '../../examples/mcp-server/src/example';
import { StepUp } from '../../examples/mcp-server/src/step-up-client';
import { Browser, pkce } from '../support/browser';
import { freePort } from '../support/built-service';
import { sql, testConfig } from '../support/create-test-app';
import { uniqueName } from '../support/fixtures';
import { jwtPayload, request, userAccessToken } from '../support/http';
import { servicePrivateKey } from '../support/signing-keys';
import { startMetadataDocumentServer } from '../support/metadata-document-server';
import { eventually } from '../support/token-lifecycle';

/** The demo's pre-registered MCP client (docs/demo-data.md); its redirect URI is never listened on here: the provider reads the redirect. */
const MCP_CLIENT = { client_id: 'mcp-client' };
const REDIRECT_URL = 'http://127.0.0.1:5181/callback';
const CLIENT_METADATA: OAuthClientMetadata = {
  client_name: 'Tollgate e2e MCP client',
  redirect_uris: [REDIRECT_URL],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};
const CLIENT_INFO = { name: 'tollgate-e2e', version: '1.0.0' };

/**
 * An MCP client's OAuth side as an application writes it: keeps what the SDK hands it, checks the
 * redirect's `state` (the SDK does not; finishAuth checks `iss`), and plays alice's browser in
 * redirectToAuthorization: the login page, then the consent page. With the example's StepUp, an
 * RFC 9470 challenge leads to an authorization request with its `acr_values`.
 */
class SignInProvider implements OAuthClientProvider {
  readonly expectedState = randomBytes(16).toString('base64url');
  readonly stepUp = new StepUp();
  authorizationUrl?: URL;
  /** Whether redirectToAuthorization signs alice in (a step-up to a passkey cannot be played here before passkeys exist). */
  signsIn = true;
  consentAsked = false;
  /** The consent page's HTML, when one was shown. */
  consentPage?: string;
  /** What the SDK handed to saveClientInformation (a dynamic registration's answer). */
  savedClient?: OAuthClientInformationMixed;
  private callback?: URL;
  private saved: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; discovery?: OAuthDiscoveryState } = {};

  /** `client`: what clientInformation() answers before anything was saved (a pre-registered client, or a metadata document's URL). */
  constructor(
    private readonly tollgateUrl: string,
    private readonly client?: OAuthClientInformationMixed,
  ) {}

  get redirectUrl(): string {
    return REDIRECT_URL;
  }
  get clientMetadata(): OAuthClientMetadata {
    return CLIENT_METADATA;
  }
  state(): string {
    return this.expectedState;
  }
  /** A client known before discovery is stamped with its authorization server (SEP-2352: never sent to another). */
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.saved.client ?? (this.client && { ...this.client, issuer: this.tollgateUrl });
  }
  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.saved.client = client;
    this.savedClient = client;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved.tokens;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved.tokens = tokens;
  }
  dropTokens(): void {
    this.saved.tokens = undefined;
  }
  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.saved.discovery = discovery;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.saved.discovery;
  }
  saveCodeVerifier(verifier: string): void {
    this.saved.verifier = verifier;
  }
  codeVerifier(): string {
    if (!this.saved.verifier) throw new Error('no code verifier saved');
    return this.saved.verifier;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrl = this.stepUp.authorizationUrl(authorizationUrl);
    if (!this.signsIn) return;
    const browser = new Browser();
    const login = await browser.get(this.authorizationUrl.href);
    expect(login.status).toBe(200);
    let response = await browser.submit(this.tollgateUrl, await login.text(), { username: 'alice', password: 'alice' });
    if (response.status === 200) {
      const consent = await response.text();
      expect(consent).toContain('name="decision"');
      this.consentAsked = true;
      this.consentPage = consent;
      response = await browser.submit(this.tollgateUrl, consent, { decision: 'allow' });
    }
    expect(response.status).toBe(302);
    this.callback = new URL(response.headers.get('location')!);
  }

  /** The parameters of the redirect back to the client (code and `iss` for finishAuth), once its state is checked. */
  callbackParameters(issuer: string): URLSearchParams {
    if (!this.callback) throw new Error('the SDK did not send the user to the authorization endpoint');
    expect(`${this.callback.origin}${this.callback.pathname}`).toBe(REDIRECT_URL);
    expect({ state: this.callback.searchParams.get('state'), iss: this.callback.searchParams.get('iss') }).toEqual({ state: this.expectedState, iss: issuer });
    return this.callback.searchParams;
  }

  /** The transport's options: this provider, and the step-up middleware in its fetch. */
  transportOptions() {
    return { authProvider: this, fetch: this.stepUp.middleware(() => this.dropTokens())(fetch) };
  }
}

/**
 * examples/mcp-server with the official MCP SDK's client (docs/mcp-example.md): the client discovers
 * Tollgate from the MCP server's protected-resource metadata (RFC 9728), signs alice in with PKCE and
 * `resource` = the MCP server's URI (RFC 8707), and calls a tool; the MCP server exchanges her token
 * (RFC 8693) for one addressed to API 2, never forwarding her token.
 */
describe('the MCP server example with the MCP SDK client', () => {
  let tollgate: NestFastifyApplication;
  let issuer: string;
  let example: RunningExample;
  const notesApiCalls: { token: string; claims: JWTPayload }[] = [];
  // The demo `notes` resource is http://127.0.0.1:5180/mcp; this run's MCP server listens on a free
  // port, so it gets a resource of its own: same scope, served by the same client, its real URI.
  const resourceName = uniqueName('notes-e2e');

  beforeAll(async () => {
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    // CACHE_TTL_SECONDS=0: the resource added below is seen within a second. Dynamic registration is
    // switched on for the variant where the SDK registers itself; the other clients never register.
    tollgate = await createApp(testConfig({ ISSUER: issuer, CACHE_TTL_SECONDS: '0', DYNAMIC_REGISTRATION: 'open' }));
    await tollgate.listen({ port, host: '127.0.0.1' });
    example = await startExample({
      issuer,
      mcpPort: 0,
      notesApiPort: 0,
      client: { clientId: 'notes-mcp', clientSecret: 'notes-mcp-secret' },
      onNotesApiCall: (call) => notesApiCalls.push(call),
    });
    // Opened to self-registered clients, like the demo `notes`: the metadata-document and registered clients may ask for it.
    await sql('INSERT INTO api_resources (name, scopes, resource_uri, serving_client_id, open_to_self_registered) VALUES ($1, $2, $3, $4, true)', [
      resourceName,
      ['notes'],
      example.mcp.resourceUri,
      'notes-mcp',
    ]);
    await eventually(async () => (await fetch(authorizeUrl(example.mcp.resourceUri), { redirect: 'manual' })).status === 200, 5000);
  }, 60_000);

  afterAll(async () => {
    await example?.close();
    await tollgate?.close();
    await sql('DELETE FROM api_resources WHERE name = $1', [resourceName]);
  });

  /** An authorization request of `mcp-client` for the resource: the login page once Tollgate knows the resource, an invalid_target redirect before. */
  function authorizeUrl(resource: string): string {
    const query = new URLSearchParams({
      client_id: MCP_CLIENT.client_id,
      redirect_uri: REDIRECT_URL,
      response_type: 'code',
      scope: 'notes',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource,
    });
    return `${issuer}/connect/authorize?${query.toString()}`;
  }

  /**
   * The whole flow for one provider: the first connection is refused (401), the SDK discovers Tollgate
   * and sends alice to sign in; the code is redeemed, a new connection calls `list_notes`.
   */
  async function signInAndListNotes(provider: SignInProvider) {
    const transport = () => new StreamableHTTPClientTransport(new URL(example.mcp.resourceUri), provider.transportOptions());
    const unauthorized = transport();
    await expect(new Client(CLIENT_INFO).connect(unauthorized)).rejects.toThrow(UnauthorizedError);
    await unauthorized.finishAuth(provider.callbackParameters(issuer));
    const client = new Client(CLIENT_INFO);
    await client.connect(transport());
    try {
      const result = await client.callTool({ name: 'list_notes' });
      return { result, mcpToken: provider.tokens()!.access_token };
    } finally {
      await client.close();
    }
  }

  /** The tool's answer came from API 2, called with an exchanged token for alice (`sub` 1) acting through `notes-mcp` — never with her token. */
  async function expectNotesThroughApi2({ result, mcpToken }: Awaited<ReturnType<typeof signInAndListNotes>>, before: number) {
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sub: '1', act: { client_id: 'notes-mcp' }, notes: expect.arrayContaining([expect.any(String)]) });
    expect(notesApiCalls).toHaveLength(before + 1);
    const call = notesApiCalls[before];
    expect(call.claims).toMatchObject({ iss: issuer, sub: '1', aud: 'api2', client_id: 'notes-mcp', act: { client_id: 'notes-mcp' }, scope: 'api2' });
    expect(call.token).not.toBe(mcpToken);
    // Had the MCP server forwarded alice's token, API 2 would have refused it: it is not addressed to API 2.
    const forwarded = await request(`${example.notesApi.url}/notes`, { headers: { authorization: `Bearer ${mcpToken}` } });
    expect(forwarded.status).toBe(401);
  }

  it('publishes its resource metadata naming Tollgate (RFC 9728)', async () => {
    const response = await request(`${new URL(example.mcp.resourceUri).origin}/.well-known/oauth-protected-resource/mcp`);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 200,
      body: { resource: example.mcp.resourceUri, authorization_servers: [issuer], scopes_supported: ['notes'], resource_name: 'Demo notes' },
    });
  });

  it('signs alice in with a pre-registered public client and lists her notes through API 2 with an exchanged token', async () => {
    const provider = new SignInProvider(issuer, MCP_CLIENT);
    const before = notesApiCalls.length;
    const { result, mcpToken } = await signInAndListNotes(provider);

    const authorization = provider.authorizationUrl!;
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${issuer}/connect/authorize`);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: 'mcp-client',
      resource: example.mcp.resourceUri,
      scope: 'notes offline_access',
      code_challenge_method: 'S256',
    });
    expect(provider.consentAsked).toBe(true);
    expect(jwtPayload(mcpToken)).toMatchObject({ iss: issuer, sub: '1', aud: example.mcp.resourceUri, client_id: 'mcp-client', scope: 'notes offline_access' });
    await expectNotesThroughApi2({ result, mcpToken }, before);
  });

  it('identifies the SDK client with a client ID metadata document, asking consent on every sign-in (loopback redirect URIs)', async () => {
    const discovery = await request(`${issuer}/.well-known/oauth-authorization-server`);
    expect(discovery.body.client_id_metadata_document_supported).toBe(true);
    const documents = await startMetadataDocumentServer();
    try {
      const path = '/client.json';
      const documentUrl = documents.document(path, {
        client_id: documents.urlOf(path),
        client_name: 'MCP client',
        redirect_uris: [REDIRECT_URL],
        token_endpoint_auth_method: 'none',
      });
      for (const signIn of [1, 2]) {
        // The SDK takes clientMetadataUrl only as https; with a document URL as the client's
        // information it does what it does itself once discovery shows the documents are supported.
        const provider = new SignInProvider(issuer, { client_id: documentUrl });
        const before = notesApiCalls.length;
        const flow = await signInAndListNotes(provider);

        expect({ signIn, client_id: provider.authorizationUrl!.searchParams.get('client_id'), consentAsked: provider.consentAsked }).toEqual({
          signIn,
          client_id: documentUrl,
          consentAsked: true,
        });
        expect(provider.consentPage).toContain(`MCP client (${new URL(documents.base).host})`);
        expect(jwtPayload(flow.mcpToken)).toMatchObject({
          iss: issuer,
          sub: '1',
          aud: example.mcp.resourceUri,
          client_id: documentUrl,
          scope: 'notes offline_access',
        });
        await expectNotesThroughApi2(flow, before);
      }
      expect(documents.hits(path)).toBeGreaterThan(0);
    } finally {
      await documents.close();
    }
  });

  it('lets the SDK client register itself dynamically when registration is open (RFC 7591)', async () => {
    const discovery = await request(`${issuer}/.well-known/oauth-authorization-server`);
    expect(discovery.body.registration_endpoint).toBe(`${issuer}/connect/register`);
    const provider = new SignInProvider(issuer);
    const before = notesApiCalls.length;
    const flow = await signInAndListNotes(provider);

    const clientId = provider.savedClient?.client_id;
    expect(clientId).toEqual(expect.stringMatching(/^dyn-/));
    expect(provider.savedClient).toMatchObject({ redirect_uris: [REDIRECT_URL], token_endpoint_auth_method: 'none' });
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(clientId);
    expect(provider.consentAsked).toBe(true);
    expect(jwtPayload(flow.mcpToken)).toMatchObject({
      iss: issuer,
      sub: '1',
      aud: example.mcp.resourceUri,
      client_id: clientId,
      scope: 'notes offline_access',
    });
    await expectNotesThroughApi2(flow, before);
  });

  it('refuses a token addressed to another resource with 401 and a WWW-Authenticate challenge', async () => {
    const metadataUrl = `${new URL(example.mcp.resourceUri).origin}/.well-known/oauth-protected-resource/mcp`;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: CLIENT_INFO },
    });
    const post = (headers: Record<string, string>) =>
      request(example.mcp.resourceUri, {
        method: 'POST',
        body: initialize,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      });

    const api1Token = await userAccessToken(issuer, 'alice', 'openid api1');
    expect(jwtPayload(api1Token).aud).toBe('api1');
    const refused = await post({ authorization: `Bearer ${api1Token}` });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="The token is not addressed to this server", scope="notes", resource_metadata="${metadataUrl}"`,
    );

    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", error_description="Missing Authorization header", scope="notes", resource_metadata="${metadataUrl}"`,
    );
    expect(notesApiCalls.every((call) => call.token !== api1Token)).toBe(true);
  });
  describe('step-up (RFC 9470): export_notes needs a passkey sign-in, acr "phr"', () => {
    const exportNotes = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export_notes', arguments: {} } });

    /** alice's token for the MCP server, signed in with the SDK client; her sign-in has no passkey. */
    async function signedIn() {
      const provider = new SignInProvider(issuer, MCP_CLIENT);
      const flow = await signInAndListNotes(provider);
      return { provider, token: flow.mcpToken };
    }

    /** The same claims with an `acr`, re-signed with the service's key: the tokens of a passkey sign-in (docs/passkeys.md) until passkeys exist. */
    async function withAcr(token: string, acr: string): Promise<string> {
      const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
      return new SignJWT({ ...jwtPayload(token), acr }).setProtectedHeader(header).sign(await servicePrivateKey(header.kid));
    }

    const post = (token: string) =>
      request(example.mcp.resourceUri, {
        method: 'POST',
        body: exportNotes,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      });

    it('answers 401 insufficient_user_authentication with acr_values="phr" to a token without acr, or with acr "pwd"', async () => {
      const { token } = await signedIn();
      const metadataUrl = `${new URL(example.mcp.resourceUri).origin}/.well-known/oauth-protected-resource/mcp`;
      const before = notesApiCalls.length;
      for (const candidate of [token, await withAcr(token, 'pwd')]) {
        const refused = await post(candidate);
        expect({ status: refused.status, challenge: refused.headers.get('www-authenticate'), body: refused.body }).toEqual({
          status: 401,
          challenge: `Bearer error="insufficient_user_authentication", error_description="export_notes needs a sign-in with a passkey", acr_values="phr", resource_metadata="${metadataUrl}"`,
          body: { error: 'insufficient_user_authentication', error_description: 'export_notes needs a sign-in with a passkey' },
        });
      }
      expect(notesApiCalls).toHaveLength(before);
    });

    it('runs the tool for a token with acr "phr": API 2 gets an exchanged token', async () => {
      const { provider, token } = await signedIn();
      provider.saveTokens({ ...provider.tokens()!, access_token: await withAcr(token, 'phr') });
      const client = new Client(CLIENT_INFO);
      await client.connect(new StreamableHTTPClientTransport(new URL(example.mcp.resourceUri), provider.transportOptions()));
      const before = notesApiCalls.length;
      try {
        const result = await client.callTool({ name: 'export_notes' });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toEqual({ sub: '1', act: { client_id: 'notes-mcp' }, notes: expect.arrayContaining([expect.any(String)]) });
      } finally {
        await client.close();
      }
      expect(notesApiCalls).toHaveLength(before + 1);
      expect(notesApiCalls[before].claims).toMatchObject({ sub: '1', aud: 'api2', act: { client_id: 'notes-mcp' } });
    });

    it('sends the SDK client to sign in again with acr_values=phr, never refreshing into the same sign-in', async () => {
      const { provider } = await signedIn();
      const client = new Client(CLIENT_INFO);
      const transport = new StreamableHTTPClientTransport(new URL(example.mcp.resourceUri), provider.transportOptions());
      await client.connect(transport);
      // The SDK would answer a plain 401 with this refresh token: a token of the same sign-in, refused again.
      expect(provider.tokens()?.refresh_token).toEqual(expect.any(String));
      provider.signsIn = false;
      try {
        await expect(client.callTool({ name: 'export_notes' })).rejects.toThrow(UnauthorizedError);
      } finally {
        await client.close();
      }
      const authorization = provider.authorizationUrl!;
      expect(`${authorization.origin}${authorization.pathname}`).toBe(`${issuer}/connect/authorize`);
      expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
        client_id: 'mcp-client',
        resource: example.mcp.resourceUri,
        acr_values: 'phr',
        code_challenge_method: 'S256',
      });
      expect(provider.tokens()).toBeUndefined();
    });
  });
});
