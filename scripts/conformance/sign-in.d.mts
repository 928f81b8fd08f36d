/** The first form of one of Tollgate's pages: its action and hidden inputs. */
export function readForm(html: string): { action: string; hidden: Record<string, string> };
/** Signs a user in through the login and consent forms; answers the redirect back to the client. */
export function signIn(authorizationUrl: string, credentials: { username: string; password: string }): Promise<string>;
