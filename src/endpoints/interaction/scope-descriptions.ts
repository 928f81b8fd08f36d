/** The consent page's words for each scope; API scopes are named as such. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  openid: 'Know who you are (your user identifier)',
  profile: 'See your name and profile',
  email: 'See your email address',
  role: 'See your roles',
  offline_access: 'Keep access while you are not using it',
};

export function describeScopes(scopes: readonly string[]): string[] {
  return scopes.map((scope) => DESCRIPTIONS[scope] ?? `Use the ${scope} API on your behalf`);
}
