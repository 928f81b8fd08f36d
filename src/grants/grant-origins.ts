/** Where grant validator classes came from, for the start's messages (e.g. `TOLLGATE_EXTENSIONS /extensions/partner-key.js`). */
const origins = new WeakMap<object, string>();

export function recordGrantOrigin(validatorClass: object, origin: string): void {
  origins.set(validatorClass, origin);
}

export function grantOriginOf(validatorClass: object): string | undefined {
  return origins.get(validatorClass);
}

/** A validator as a start message names it: its class, and the extension file it came from. */
export function describeGrantValidator(validator: object): string {
  const origin = grantOriginOf(validator.constructor);
  return `${validator.constructor.name}${origin === undefined ? '' : ` (${origin})`}`;
}
