import type { ResourceView } from '../inventory/inventory';
import { sharedScopeWarnings } from './shared-scopes';

const api = (name: string, scopes: string[], extra: Partial<ResourceView> = {}): ResourceView => ({
  name,
  kind: 'api',
  enabled: true,
  scopes,
  uri: null,
  servedBy: null,
  openToSelfRegistered: false,
  claims: [],
  ...extra,
});

describe('sharedScopeWarnings', () => {
  it('names each other enabled API resource that shares scopes, and what self-registered clients get', () => {
    const others = [
      api('notes', ['notes.read', 'notes.write'], { openToSelfRegistered: true }),
      api('admin', ['notes.read']),
      api('old', ['notes.read'], { enabled: false }),
      api('profile', ['profile'], { kind: 'identity' }),
      api('mine', ['notes.read']),
    ];
    expect(sharedScopeWarnings({ name: 'mine', scopes: ['notes.read', 'notes.write', 'profile'], openToSelfRegistered: false }, others)).toEqual([
      'warning: API resource "mine" shares the scopes notes.read notes.write with API resource "notes": a token with them names both in aud. ' +
        'Clients that registered themselves get only "notes" (opened to them), whichever resource the scope was meant for.',
      'warning: API resource "mine" shares the scope notes.read with API resource "admin": a token with it names both in aud. ' +
        'Clients that registered themselves get neither.',
    ]);
  });

  it('says when both are opened, and nothing when no scope is shared', () => {
    const notes = api('notes', ['notes.read'], { openToSelfRegistered: true });
    expect(sharedScopeWarnings({ name: 'files', scopes: ['notes.read'], openToSelfRegistered: true }, [notes])[0]).toContain('get both (both opened to them)');
    expect(sharedScopeWarnings({ name: 'files', scopes: ['files.read'], openToSelfRegistered: true }, [notes])).toEqual([]);
  });
});
