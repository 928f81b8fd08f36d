import type { AuthInfo } from '@modelcontextprotocol/server';

/** The tool that needs a phishing-resistant sign-in. */
export const STEP_UP_TOOL = 'export_notes';
/** OpenID EAP's phishing-resistant authentication, Tollgate's `acr` of a passkey sign-in (docs/passkeys.md). */
export const PHISHING_RESISTANT = 'phr';

/** Whether a JSON-RPC message (or batch) calls the step-up tool. */
function callsStepUpTool(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some(
    (message: unknown) =>
      typeof message === 'object' &&
      message !== null &&
      (message as { method?: unknown }).method === 'tools/call' &&
      (message as { params?: { name?: unknown } }).params?.name === STEP_UP_TOOL,
  );
}

/**
 * RFC 9470 §3: a call of the step-up tool with a token whose `acr` is not `phr` gets `401` with
 * `WWW-Authenticate: Bearer error="insufficient_user_authentication", acr_values="phr"`, so the client
 * signs the user in again with `acr_values=phr`. The SDK's own per-tool challenge is for scopes only
 * (403 `insufficient_scope`), hence this check in front of the MCP handler. `undefined`: go ahead.
 */
export async function stepUpChallenge(request: Request, auth: AuthInfo, resourceMetadataUrl: string): Promise<Response | undefined> {
  if (auth.extra?.acr === PHISHING_RESISTANT || request.method !== 'POST') return undefined;
  // A body that is not JSON is the MCP handler's to refuse (-32700).
  if (
    !callsStepUpTool(
      await request
        .clone()
        .json()
        .catch(() => undefined),
    )
  )
    return undefined;
  const description = `${STEP_UP_TOOL} needs a sign-in with a passkey`;
  return Response.json(
    { error: 'insufficient_user_authentication', error_description: description },
    {
      status: 401,
      headers: {
        'www-authenticate': `Bearer error="insufficient_user_authentication", error_description="${description}", acr_values="${PHISHING_RESISTANT}", resource_metadata="${resourceMetadataUrl}"`,
      },
    },
  );
}
