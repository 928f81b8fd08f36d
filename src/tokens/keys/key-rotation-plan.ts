import type { SigningAlgorithm } from '../../platform/config/app.config';

/** What rotation needs to know of a stored key; every time comes from the database's clock. */
export interface KeyTimeline {
  readonly kid: string;
  readonly algorithm: SigningAlgorithm;
  readonly createdAt: Date;
  /** From then on the key may sign; it is published from `createdAt`. */
  readonly activatesAt: Date;
  /** Scheduled end of publication, set once a newer key has taken over. */
  readonly retiresAt?: Date;
}

export interface KeyRotationPolicy {
  readonly rotationIntervalSeconds: number;
  readonly propagationSeconds: number;
  readonly retentionSeconds: number;
}

export interface KeyRotationPlan {
  /** Create a key that signs from `activatesAt`. */
  readonly create?: { readonly activatesAt: Date };
  readonly scheduleRetirement: readonly { readonly kid: string; readonly retiresAt: Date }[];
  /** Keys whose publication has ended. */
  readonly retire: readonly string[];
}

/** What one rotation check does for every algorithm a configuration rotates. */
export interface RotationsPlan {
  readonly create: readonly { readonly algorithm: SigningAlgorithm; readonly activatesAt: Date }[];
  readonly scheduleRetirement: KeyRotationPlan['scheduleRetirement'];
  readonly retire: readonly string[];
}

/**
 * OpenID Connect Discovery §3 and Dynamic Registration §2: RS256 is the ID-token algorithm every
 * relying party may count on, so ID tokens are signed with an RS256 key whatever SIGNING_ALG is
 * (docs/tokens.md#id-token-signing).
 */
export const ID_TOKEN_SIGNING_ALGORITHM: SigningAlgorithm = 'RS256';

/** The algorithms whose keys a configuration rotates: SIGNING_ALG first, and the ID tokens' RS256. */
export function rotatedAlgorithms(signingAlgorithm: SigningAlgorithm): readonly SigningAlgorithm[] {
  return signingAlgorithm === ID_TOKEN_SIGNING_ALGORITHM ? [signingAlgorithm] : [signingAlgorithm, ID_TOKEN_SIGNING_ALGORITHM];
}

export interface PlanOptions {
  /** Create a new key even if none is due (an operator's forced rotation). */
  readonly force?: boolean;
  /** With `force`: the new key signs at once instead of after the propagation time. */
  readonly immediately?: boolean;
}

/** Newest activation first; ties by creation, then kid, so every instance picks the same key. */
export function byActivationDescending(a: KeyTimeline, b: KeyTimeline): number {
  return b.activatesAt.getTime() - a.activatesAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime() || (a.kid < b.kid ? 1 : a.kid > b.kid ? -1 : 0);
}

/** The key that signs at `now`: the newest of the algorithm whose activation has come. */
export function selectSigningKey<T extends KeyTimeline>(keys: readonly T[], algorithm: SigningAlgorithm, now: Date): T | undefined {
  return keys.filter((key) => key.algorithm === algorithm && key.activatesAt.getTime() <= now.getTime()).sort(byActivationDescending)[0];
}

/**
 * Decides, from the unretired keys and the database's `now`, what one rotation check does
 * (Duende's scheme): a key signs from its activation until a successor activates; the successor is
 * created `propagation` ahead, when its predecessor is `rotationInterval - propagation` old, so
 * that verifiers have it before the first token it signs; a superseded key stays published for
 * `retention` after its successor took over, then is retired. Keys of another algorithm are
 * left to the instances that sign with it, unless nobody has rotated them for longer than a key
 * can live.
 */
export function planKeyRotation(
  keys: readonly KeyTimeline[],
  algorithm: SigningAlgorithm,
  now: Date,
  policy: KeyRotationPolicy,
  options: PlanOptions = {},
  rotated: readonly SigningAlgorithm[] = [algorithm],
): KeyRotationPlan {
  const current = selectSigningKey(keys, algorithm, now);
  const scheduleRetirement = [...superseded(current, keys, policy), ...abandoned(keys, rotated, now, policy)];
  const retiresAt = new Map(keys.map((key) => [key.kid, key.retiresAt]));
  for (const { kid, retiresAt: at } of scheduleRetirement) retiresAt.set(kid, at);
  // The key that signs now is never retired, whatever another instance scheduled.
  const retire = [...retiresAt].filter(([kid, at]) => kid !== current?.kid && at !== undefined && at.getTime() <= now.getTime()).map(([kid]) => kid);
  return { create: keyToCreate(current, keys, algorithm, now, policy, options), scheduleRetirement, retire };
}

/**
 * The rotation plan of each algorithm (SIGNING_ALG and the ID tokens' RS256),
 * each line on its own schedule; a forced rotation renews every line. No key that signs now for one
 * of them is retired, and neither line is taken for abandoned keys of another configuration.
 */
export function planRotations(
  keys: readonly KeyTimeline[],
  algorithms: readonly SigningAlgorithm[],
  now: Date,
  policy: KeyRotationPolicy,
  options: PlanOptions = {},
): RotationsPlan {
  const plans = algorithms.map((algorithm) => ({ algorithm, plan: planKeyRotation(keys, algorithm, now, policy, options, algorithms) }));
  const signing = new Set(algorithms.map((algorithm) => selectSigningKey(keys, algorithm, now)?.kid));
  const scheduled = new Map(plans.flatMap(({ plan }) => plan.scheduleRetirement.map((entry) => [entry.kid, entry] as const)));
  return {
    create: plans.flatMap(({ algorithm, plan }) => (plan.create ? [{ algorithm, activatesAt: plan.create.activatesAt }] : [])),
    scheduleRetirement: [...scheduled.values()],
    retire: [...new Set(plans.flatMap(({ plan }) => plan.retire))].filter((kid) => !signing.has(kid)),
  };
}

function keyToCreate(
  current: KeyTimeline | undefined,
  keys: readonly KeyTimeline[],
  algorithm: SigningAlgorithm,
  now: Date,
  policy: KeyRotationPolicy,
  options: PlanOptions,
): KeyRotationPlan['create'] {
  if (!current) {
    // A key of the algorithm is already waiting to activate (SIGNING_ALG changed).
    if (!options.force && keys.some((key) => key.algorithm === algorithm && !key.retiresAt)) return undefined;
    // First start: sign at once. A new SIGNING_ALG: publish first, like any successor, so verifiers
    // that take their algorithms from discovery know it before its first token (RFC 8414 §2).
    const anotherSigns = keys.some((key) => key.algorithm !== algorithm && key.activatesAt.getTime() <= now.getTime());
    return { activatesAt: anotherSigns && !options.immediately ? plusSeconds(now, policy.propagationSeconds) : now };
  }
  if (options.force) return { activatesAt: options.immediately ? now : plusSeconds(now, policy.propagationSeconds) };
  const newest = keys.filter((key) => key.algorithm === algorithm && !key.retiresAt).sort(byCreationDescending)[0] ?? current;
  const due = plusSeconds(newest.createdAt, policy.rotationIntervalSeconds - policy.propagationSeconds);
  if (now.getTime() < due.getTime()) return undefined;
  return { activatesAt: plusSeconds(now, policy.propagationSeconds) };
}

/**
 * Keys of the signing algorithm that activated before the current one no longer sign; tokens they
 * signed live at most until the current key's activation plus the retention time.
 */
function superseded(current: KeyTimeline | undefined, keys: readonly KeyTimeline[], policy: KeyRotationPolicy): KeyRotationPlan['scheduleRetirement'] {
  if (!current) return [];
  const retiresAt = plusSeconds(current.activatesAt, policy.retentionSeconds);
  return keys
    .filter((key) => key.algorithm === current.algorithm && !key.retiresAt && key.kid !== current.kid && byActivationDescending(current, key) < 0)
    .map((key) => ({ kid: key.kid, retiresAt }));
}

/** Other algorithms' keys nobody has rotated within a key's whole life: nothing signs with them. */
function abandoned(
  keys: readonly KeyTimeline[],
  rotated: readonly SigningAlgorithm[],
  now: Date,
  policy: KeyRotationPolicy,
): KeyRotationPlan['scheduleRetirement'] {
  const lifetime = policy.rotationIntervalSeconds + policy.retentionSeconds;
  const newestByAlgorithm = new Map<SigningAlgorithm, KeyTimeline>();
  for (const key of [...keys].sort(byCreationDescending)) if (!newestByAlgorithm.has(key.algorithm)) newestByAlgorithm.set(key.algorithm, key);
  const stale = [...newestByAlgorithm.values()]
    .filter((newest) => !rotated.includes(newest.algorithm) && plusSeconds(newest.createdAt, lifetime).getTime() <= now.getTime())
    .map((newest) => newest.algorithm);
  return keys.filter((key) => stale.includes(key.algorithm) && !key.retiresAt).map((key) => ({ kid: key.kid, retiresAt: now }));
}

function byCreationDescending(a: KeyTimeline, b: KeyTimeline): number {
  return b.createdAt.getTime() - a.createdAt.getTime();
}

function plusSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
