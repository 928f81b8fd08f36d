import { AddressBudget, type AddressBudgetLimits } from './address-budget';
import type { CounterStore } from './counter-store';

/**
 * Client ID metadata documents fetched for the first time (docs/agents.md#bounds), counted per client
 * address before the fetch: each distinct URL is a fetch and, once valid, a `clients` row, so an
 * address naming ever new URLs gets 429 until its window ends; no other address is held back.
 */
export class MetadataDocumentThrottle extends AddressBudget {
  constructor(store: CounterStore, limits: AddressBudgetLimits, now?: () => number) {
    super(store, 'metadata-documents', 'too many new client metadata documents from this address', limits, now);
  }
}
