import { AddressBudget, type AddressBudgetLimits } from './address-budget';
import type { CounterStore } from './counter-store';

export type RegistrationLimits = AddressBudgetLimits;

/**
 * Dynamic client registration (RFC 7591 §3, docs/agents.md#throttling): requests are counted per
 * client address, as failed client authentications are; an address over the budget gets 429 until
 * its window ends, and no other address is held back by it.
 */
export class RegistrationThrottle extends AddressBudget {
  constructor(store: CounterStore, limits: RegistrationLimits, now?: () => number) {
    super(store, 'registrations', 'too many registrations from this address', limits, now);
  }
}
