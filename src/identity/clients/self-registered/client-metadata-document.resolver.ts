import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { JSONWebKeySet } from 'jose';
import type { Client } from '../client';
import { ClientRepository } from '../client.repository';
import type { ConfigType } from '../../../platform/config/config-slice';
import { agentsConfig } from '../../../platform/config/config.slices';
import { currentClientAddress } from '../../../platform/http/client-address-context';
import { MetadataDocumentThrottle } from '../../../platform/rate-limit/metadata-document.throttle';
import { readJsonDocument } from '../../../protocol/json-object';
import type { ResourceCatalog } from '../../resources/resource-catalog';
import { ResourceStore } from '../../resources/resource.store';
import { cacheLifetimeSeconds } from './cache-lifetime';
import { clientIdUrlProblem } from './client-id-url';
import { ClientMetadataError, type ClientMetadata } from './client-metadata';
import { readClientMetadataDocument } from './client-metadata-document';
import { MetadataDocumentCache, type Fetched, type Refusal } from './metadata-document.cache';
import { OutboundAddressPolicy } from './outbound-address.policy';
import { OutboundFetcher, OutboundFetchError } from './outbound-fetcher';
import { publicJwkSet } from './public-jwk-set';
import { selfRegisteredClient } from './self-registered-client';

/** A client found, or why there is none to show (docs/agents.md). */
export type ClientLookup = { readonly client: Client } | Refusal;

const MAX_DOCUMENT_BYTES = 5 * 1024;
const MAX_JWKS_BYTES = 32 * 1024;

interface ClientDocument {
  readonly metadata: ClientMetadata;
  /** private_key_jwt: the document's `jwks`, or what its `jwks_uri` served when it was fetched. */
  readonly jwks?: JSONWebKeySet;
}

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): fetches the
 * document a URL client_id names (`OutboundFetcher`), validates it, caches it per its HTTP caching
 * headers (`MetadataDocumentCache`), and gives the client as a readonly domain `Client`, so the
 * authorization, pushed authorization and token endpoints treat it like any other.
 */
@Injectable()
export class ClientMetadataDocumentResolver implements OnModuleDestroy {
  private readonly fetcher: OutboundFetcher;
  private readonly allowLoopbackHttp: boolean;
  private readonly documents = new MetadataDocumentCache<ClientDocument>((url) => this.fetchDocument(url));
  /** The client each held document makes under the catalog it was made with (its scopes come from the catalog). */
  private readonly built = new WeakMap<ClientDocument, { readonly catalog: ResourceCatalog; readonly client: Client }>();

  constructor(
    @Inject(agentsConfig.KEY) private readonly config: ConfigType<typeof agentsConfig>,
    private readonly resources: ResourceStore,
    private readonly clients: ClientRepository,
    private readonly newDocuments: MetadataDocumentThrottle,
  ) {
    // docs/agents.md#development: while the issuer is http, loopback documents are accepted too.
    this.allowLoopbackHttp = new URL(config.issuer).protocol === 'http:';
    this.fetcher = new OutboundFetcher(new OutboundAddressPolicy(this.allowLoopbackHttp), {
      timeoutMs: config.metadataTimeoutMs,
      maxBytes: MAX_DOCUMENT_BYTES,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.fetcher.close();
  }

  async resolve(clientId: string): Promise<ClientLookup> {
    if (!this.config.metadataDocuments) return { problem: 'client ID metadata documents are not accepted by this server' };
    // A URL held (its document, a remembered failure, a fetch under way) passed these checks before it was fetched.
    if (this.documents.wouldFetchNew(clientId)) {
      const urlProblem = clientIdUrlProblem(clientId, this.allowLoopbackHttp);
      if (urlProblem) return { problem: urlProblem };
      await this.admitNewDocument();
    }
    const document = await this.documents.get(clientId);
    if ('problem' in document) return { problem: `the client metadata document cannot be used: ${document.problem}` };
    const catalog = this.resources.catalog;
    const built = this.built.get(document);
    if (built?.catalog === catalog) return { client: built.client };
    const client = selfRegisteredClient(
      {
        clientId,
        kind: 'metadata_document',
        metadata: document.metadata,
        host: new URL(clientId).host,
        ...(document.jwks ? { assertionKeys: { type: 'inline', jwks: document.jwks } } : {}),
      },
      catalog,
    );
    this.built.set(document, { catalog, client });
    return { client };
  }

  /**
   * docs/agents.md#bounds: a document not held yet is counted against the requesting address before
   * it is fetched; over the budget, `429 temporarily_unavailable` (a 429 page at the authorization
   * endpoint), nothing fetched and nothing stored.
   */
  private async admitNewDocument(): Promise<void> {
    const address = currentClientAddress();
    if (address !== undefined) await this.newDocuments.admit(address);
  }

  private async fetchDocument(url: string): Promise<Fetched<ClientDocument> | Refusal> {
    try {
      const response = await this.fetcher.get(url, 'application/json');
      if (response.status !== 200) throw new OutboundFetchError(`the URL answered ${response.status}, not 200`);
      const metadata = readClientMetadataDocument(url, parseJson(response.body));
      const jwks = metadata.jwksUri === undefined ? metadata.jwks : await this.fetchJwks(metadata.jwksUri);
      // Its row anchors the codes, tokens and consents it gets, and says it is in use.
      await this.clients.recordMetadataDocumentClient(url);
      return { value: { metadata, ...(jwks ? { jwks } : {}) }, lifetimeSeconds: cacheLifetimeSeconds(url, response.status, response.headers) };
    } catch (error) {
      if (error instanceof ClientMetadataError) return { problem: `${error.code}: ${error.description}` };
      if (error instanceof OutboundFetchError) return { problem: error.message };
      throw error;
    }
  }

  /** The document's `jwks_uri`, fetched under the same address rules and kept with the document. */
  private async fetchJwks(uri: string): Promise<JSONWebKeySet> {
    const response = await this.fetcher.get(uri, 'application/jwk-set+json, application/json', MAX_JWKS_BYTES);
    if (response.status !== 200) throw new OutboundFetchError(`the jwks_uri answered ${response.status}, not 200`);
    try {
      return publicJwkSet(parseJson(response.body));
    } catch (error) {
      throw new ClientMetadataError('invalid_client_metadata', `jwks_uri: ${(error as Error).message}`);
    }
  }
}

/** The response as JSON (readJsonDocument: bounded in depth, no member named twice). */
function parseJson(text: string): unknown {
  try {
    return readJsonDocument(text);
  } catch (error) {
    throw new ClientMetadataError('invalid_client_metadata', `the response cannot be read: ${(error as Error).message}`);
  }
}
