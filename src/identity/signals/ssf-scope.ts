/** The scope a client's `client_credentials` token needs to manage its Shared Signals stream (docs/signals.md#receivers). */
export const SSF_SCOPE = 'ssf';
