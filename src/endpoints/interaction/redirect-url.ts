/** Adds parameters to a URL's query, keeping the query it has (RFC 6749 §3.1.2). */
export function appendQuery(uri: string, parameters: Readonly<Record<string, string>>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.append(name, value);
  return url.toString();
}
