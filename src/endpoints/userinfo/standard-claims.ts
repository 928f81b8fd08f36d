const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
// OIDC Core §5.1.1: every member of the address claim is a string.
const isAddress = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isString);
// docs/endpoints.md#userinfo: `role` is always an array of strings, even with one role.
const isStringArray = (value: unknown) => Array.isArray(value) && value.every(isString);

const STRING_CLAIMS = [
  'sub',
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'email',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone_number',
];

/** OIDC Core §5.1: the JSON type of each standard claim (and of Tollgate's `role`). */
const STANDARD_CLAIM_TYPES: ReadonlyMap<string, (value: unknown) => boolean> = new Map([
  ...STRING_CLAIMS.map((claim) => [claim, isString] as const),
  ['email_verified', isBoolean],
  ['phone_number_verified', isBoolean],
  ['updated_at', isNumber],
  ['address', isAddress],
  ['role', isStringArray],
]);

/**
 * Whether `value` has the type OIDC Core §5.1 defines for the standard claim `claim`; a relying
 * party reading `email_verified: "yes"` as true, or `name` as an object, would be misled. Claims
 * the standard does not define are not judged here.
 */
export function hasStandardClaimType(claim: string, value: unknown): boolean {
  return STANDARD_CLAIM_TYPES.get(claim)?.(value) ?? true;
}
