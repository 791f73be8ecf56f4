/**
 * What the use cases answer instead of HTTP statuses: each returns a discriminated union of outcomes
 * (`{kind: 'created', …} | {kind: 'too_many_keys', …} | …`). Only src/http/outcomes.ts turns an outcome into a
 * status and a catalogue error; the pages and the CLI read the same outcomes.
 */
import { isStoreConfigured } from '../config.ts';
import type { Store } from '../store/types.ts';

/** Keys and the waitlist need somewhere to keep them: the memory store is "not configured". */
export interface StoreNotConfigured {
  kind: 'store_not_configured';
}
export const STORE_NOT_CONFIGURED: StoreNotConfigured = Object.freeze({ kind: 'store_not_configured' });

/** The outcome of a use case that needs a configured store, when it has none; null when it has one. */
export const storeMissing = (store: Pick<Store, 'kind'>): StoreNotConfigured | null =>
  isStoreConfigured(store) ? null : STORE_NOT_CONFIGURED;
