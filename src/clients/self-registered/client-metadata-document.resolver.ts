import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { JSONWebKeySet } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Client } from '../client';
import { ClientRepository } from '../client.repository';
import type { ConfigType } from '../../config/config-slice';
import { agentsConfig } from '../../config/config.slices';
import { ResourceStore } from '../../resources/resource.store';
import { cacheLifetimeSeconds, MAX_CACHE_SECONDS } from './cache-lifetime';
import { clientIdUrlProblem } from './client-id-url';
import { ClientMetadataError, type ClientMetadata } from './client-metadata';
import { readClientMetadataDocument } from './client-metadata-document';
import { publicJwkSet } from './public-jwk-set';
import { OutboundAddressPolicy } from './outbound-address.policy';
import { OutboundFetcher, OutboundFetchError } from './outbound-fetcher';
import { selfRegisteredClient } from './self-registered-client';

/** A client found, or why there is none to show (docs/agents.md). */
export type ClientLookup = { readonly client: Client } | { readonly problem: string };

const MAX_DOCUMENT_BYTES = 5 * 1024;
const MAX_JWKS_BYTES = 32 * 1024;
/** A URL that failed is not fetched again for this long: a request flood cannot make Tollgate fetch on every request. */
const FAILURE_MEMORY_MS = 10_000;
/** After a failed refetch, the cached document is used this long before the next attempt. */
const RETRY_AFTER_FAILURE_MS = 60_000;

interface CachedDocument {
  readonly metadata: ClientMetadata;
  /** private_key_jwt: the document's `jwks`, or what its `jwks_uri` served when it was fetched. */
  readonly jwks?: JSONWebKeySet;
  /** Fetched again after this instant (the document's cache lifetime, 5 minutes to 24 hours). */
  refreshAt: number;
  /** Never used after this instant, even when the refetch fails: 24 hours after it was fetched. */
  readonly expiresAt: number;
}

/**
 * Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document): fetches the
 * document a URL client_id names (`OutboundFetcher`), validates it, caches it per its HTTP caching
 * headers, and gives the client as a readonly domain `Client`, so the authorization, pushed
 * authorization and token endpoints treat it like any other.
 */
@Injectable()
export class ClientMetadataDocumentResolver implements OnModuleDestroy {
  private readonly fetcher: OutboundFetcher;
  private readonly allowLoopbackHttp: boolean;
  private readonly documents = new LRUCache<string, CachedDocument>({ max: 1000 });
  private readonly failures = new LRUCache<string, { problem: string }>({ max: 1000, ttl: FAILURE_MEMORY_MS });
  private readonly loading = new Map<string, Promise<CachedDocument | { problem: string }>>();

  constructor(
    @Inject(agentsConfig.KEY) private readonly config: ConfigType<typeof agentsConfig>,
    private readonly resources: ResourceStore,
    private readonly clients: ClientRepository,
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
    const urlProblem = clientIdUrlProblem(clientId, this.allowLoopbackHttp);
    if (urlProblem) return { problem: urlProblem };
    const document = await this.document(clientId);
    if ('problem' in document) return { problem: `the client metadata document cannot be used: ${document.problem}` };
    const client = selfRegisteredClient(
      {
        clientId,
        kind: 'metadata_document',
        metadata: document.metadata,
        host: new URL(clientId).host,
        ...(document.jwks ? { assertionKeys: { type: 'inline', jwks: document.jwks } } : {}),
      },
      this.resources.catalog,
    );
    return { client };
  }

  private async document(url: string): Promise<CachedDocument | { problem: string }> {
    const now = Date.now();
    const cached = this.documents.get(url);
    if (cached && now < cached.refreshAt) return cached;
    const failed = this.failures.get(url);
    if (failed) return cached && now < cached.expiresAt ? cached : failed;
    let load = this.loading.get(url);
    if (!load) {
      load = this.fetchDocument(url).finally(() => this.loading.delete(url));
      this.loading.set(url, load);
    }
    const fetched = await load;
    if (!('problem' in fetched)) return fetched;
    // A failed refetch keeps the cached document until it expires (docs/agents.md#caching).
    if (cached && now < cached.expiresAt) {
      cached.refreshAt = Math.min(cached.expiresAt, now + RETRY_AFTER_FAILURE_MS);
      return cached;
    }
    this.documents.delete(url);
    return fetched;
  }

  private async fetchDocument(url: string): Promise<CachedDocument | { problem: string }> {
    try {
      const response = await this.fetcher.get(url, 'application/json');
      if (response.status !== 200) throw new OutboundFetchError(`the URL answered ${response.status}, not 200`);
      const metadata = readClientMetadataDocument(url, parseJson(response.body));
      const jwks = metadata.jwksUri === undefined ? metadata.jwks : await this.fetchJwks(metadata.jwksUri);
      const fetchedAt = Date.now();
      const document: CachedDocument = {
        metadata,
        ...(jwks ? { jwks } : {}),
        refreshAt: fetchedAt + cacheLifetimeSeconds(url, response.status, response.headers) * 1000,
        expiresAt: fetchedAt + MAX_CACHE_SECONDS * 1000,
      };
      // Its row anchors the codes, tokens and consents it gets, and says it is in use.
      await this.clients.recordMetadataDocumentClient(url);
      this.documents.set(url, document);
      return document;
    } catch (error) {
      if (!(error instanceof OutboundFetchError || error instanceof ClientMetadataError)) throw error;
      const failure = { problem: error instanceof ClientMetadataError ? `${error.code}: ${error.description}` : error.message };
      this.failures.set(url, failure);
      return failure;
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ClientMetadataError('invalid_client_metadata', 'the response is not JSON');
  }
}
