import { planKeyRotation, planRotations, rotatedAlgorithms, selectSigningKey, type KeyRotationPolicy, type KeyTimeline } from './key-rotation-plan';

const DAY = 86_400;
const DUENDE: KeyRotationPolicy = { rotationIntervalSeconds: 90 * DAY, propagationSeconds: 14 * DAY, retentionSeconds: 14 * DAY };
const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(T0 + days * DAY * 1000);

function key(kid: string, createdDay: number, activatesDay = createdDay, extra: Partial<KeyTimeline> = {}): KeyTimeline {
  return { kid, algorithm: 'RS256', createdAt: at(createdDay), activatesAt: at(activatesDay), ...extra };
}

describe('selectSigningKey', () => {
  it('finds nothing when no key of the algorithm has activated', () => {
    expect(selectSigningKey([key('pending', 0, 14), key('es', 0, 0, { algorithm: 'ES256' })], 'RS256', at(1))).toBeUndefined();
  });

  it('picks the newest activated key of the algorithm, not a pending one', () => {
    const keys = [key('old', 0), key('current', 76, 90), key('pending', 166, 180)];
    expect(selectSigningKey(keys, 'RS256', at(100))?.kid).toBe('current');
  });

  it('switches exactly at the activation time', () => {
    const keys = [key('old', 0), key('next', 76, 90)];
    expect(selectSigningKey(keys, 'RS256', new Date(at(90).getTime() - 1))?.kid).toBe('old');
    expect(selectSigningKey(keys, 'RS256', at(90))?.kid).toBe('next');
  });

  it('breaks ties the same way everywhere (creation, then kid)', () => {
    const keys = [key('b', 1, 5), key('a', 1, 5), key('c', 0, 5)];
    expect(selectSigningKey(keys, 'RS256', at(5))?.kid).toBe('b');
  });
});

describe('planKeyRotation', () => {
  it('creates a key that signs at once when there is none', () => {
    expect(planKeyRotation([], 'RS256', at(0), DUENDE)).toEqual({ create: { activatesAt: at(0) }, scheduleRetirement: [], retire: [] });
  });

  it('publishes a key of a new SIGNING_ALG a propagation time before it signs when another algorithm signs', () => {
    const plan = planKeyRotation([key('rsa', 0)], 'ES256', at(10), DUENDE);
    expect(plan).toEqual({ create: { activatesAt: at(24) }, scheduleRetirement: [], retire: [] });
  });

  it('creates no second key of a new SIGNING_ALG while the first waits to activate', () => {
    const plan = planKeyRotation([key('rsa', 0), key('es', 10, 24, { algorithm: 'ES256' })], 'ES256', at(11), DUENDE);
    expect(plan).toEqual({ create: undefined, scheduleRetirement: [], retire: [] });
  });

  it('creates a key of a new SIGNING_ALG that signs at once when forced immediately', () => {
    const plan = planKeyRotation([key('rsa', 0)], 'ES256', at(10), DUENDE, { force: true, immediately: true });
    expect(plan.create).toEqual({ activatesAt: at(10) });
  });

  it('does nothing while the current key is younger than the interval minus the propagation time', () => {
    expect(planKeyRotation([key('current', 0)], 'RS256', at(75.99), DUENDE)).toEqual({ create: undefined, scheduleRetirement: [], retire: [] });
  });

  it('creates the successor propagation-time ahead once the current key is interval minus propagation old', () => {
    expect(planKeyRotation([key('current', 0)], 'RS256', at(76), DUENDE).create).toEqual({ activatesAt: at(90) });
  });

  it('creates no second successor while one is pending', () => {
    const plan = planKeyRotation([key('current', 0), key('pending', 76, 90)], 'RS256', at(80), DUENDE);
    expect(plan).toEqual({ create: undefined, scheduleRetirement: [], retire: [] });
  });

  it('schedules the predecessor for retirement the retention time after its successor activated', () => {
    const plan = planKeyRotation([key('old', 0), key('current', 76, 90)], 'RS256', at(90), DUENDE);
    expect(plan).toEqual({ create: undefined, scheduleRetirement: [{ kid: 'old', retiresAt: at(104) }], retire: [] });
  });

  it('retires a key whose scheduled retirement has come', () => {
    const plan = planKeyRotation([key('old', 0, 0, { retiresAt: at(104) }), key('current', 76, 90)], 'RS256', at(104), DUENDE);
    expect(plan).toEqual({ create: undefined, scheduleRetirement: [], retire: ['old'] });
  });

  it('keeps publishing a scheduled key until then', () => {
    const plan = planKeyRotation([key('old', 0, 0, { retiresAt: at(104) }), key('current', 76, 90)], 'RS256', at(103.9), DUENDE);
    expect(plan.retire).toEqual([]);
  });

  it('schedules and retires at once a key superseded longer ago than the retention time (instances were down)', () => {
    const plan = planKeyRotation([key('old', 0), key('current', 76, 90)], 'RS256', at(120), DUENDE);
    expect(plan).toEqual({ create: undefined, scheduleRetirement: [{ kid: 'old', retiresAt: at(104) }], retire: ['old'] });
  });

  it('on a forced rotation creates a key that signs after the propagation time', () => {
    expect(planKeyRotation([key('current', 0)], 'RS256', at(3), DUENDE, { force: true }).create).toEqual({ activatesAt: at(17) });
  });

  it('on a forced immediate rotation creates a key that signs at once, and the next check retires the old one on schedule', () => {
    expect(planKeyRotation([key('current', 0)], 'RS256', at(3), DUENDE, { force: true, immediately: true }).create).toEqual({ activatesAt: at(3) });
    const next = planKeyRotation([key('current', 0), key('forced', 3)], 'RS256', at(3), DUENDE);
    expect(next).toEqual({ create: undefined, scheduleRetirement: [{ kid: 'current', retiresAt: at(17) }], retire: [] });
  });

  it('with a propagation time of 0 creates a successor that signs at once when due', () => {
    const policy = { ...DUENDE, propagationSeconds: 0 };
    expect(planKeyRotation([key('current', 0)], 'RS256', at(90), policy).create).toEqual({ activatesAt: at(90) });
  });

  it('leaves keys of another algorithm to the instances that sign with it', () => {
    const plan = planKeyRotation([key('es', 0, 0, { algorithm: 'ES256' }), key('current', 0)], 'RS256', at(50), DUENDE);
    expect(plan).toEqual({ create: undefined, scheduleRetirement: [], retire: [] });
  });

  it('retires keys of another algorithm that nobody rotated for longer than a key lives', () => {
    const keys = [key('es-old', 0, 0, { algorithm: 'ES256' }), key('es', 10, 10, { algorithm: 'ES256' }), key('current', 90, 90)];
    expect(planKeyRotation(keys, 'RS256', at(113.9), DUENDE).retire).toEqual([]);
    const plan = planKeyRotation(keys, 'RS256', at(114), DUENDE);
    expect(plan.scheduleRetirement).toEqual([
      { kid: 'es-old', retiresAt: at(114) },
      { kid: 'es', retiresAt: at(114) },
    ]);
    expect(plan.retire).toEqual(['es-old', 'es']);
  });

  it('under the defaults, creates a key every 76 days that signs from day 14 of its life, retired 14 days after its successor took over', () => {
    let keys: KeyTimeline[] = [];
    const events: string[] = [];
    const day = (date: Date) => (date.getTime() - T0) / 1000 / DAY;
    for (let today = 0; today <= 200; today++) {
      const plan = planKeyRotation(keys, 'RS256', at(today), DUENDE);
      if (plan.create) {
        keys.push(key(`k${today}`, today, day(plan.create.activatesAt)));
        events.push(`day ${today}: create k${today}, signs from day ${day(plan.create.activatesAt)}`);
      }
      for (const { kid, retiresAt } of plan.scheduleRetirement) {
        keys = keys.map((k) => (k.kid === kid ? { ...k, retiresAt } : k));
        events.push(`day ${today}: ${kid} published until day ${day(retiresAt)}`);
      }
      for (const kid of plan.retire) events.push(`day ${today}: retire ${kid}`);
      keys = keys.filter((k) => !plan.retire.includes(k.kid));
    }
    expect(events).toEqual([
      'day 0: create k0, signs from day 0',
      'day 76: create k76, signs from day 90',
      'day 90: k0 published until day 104',
      'day 104: retire k0',
      'day 152: create k152, signs from day 166',
      'day 166: k76 published until day 180',
      'day 180: retire k76',
    ]);
  });
});

describe('planRotations', () => {
  const es = (kid: string, createdDay: number, activatesDay = createdDay, extra: Partial<KeyTimeline> = {}) =>
    key(kid, createdDay, activatesDay, { algorithm: 'ES256', ...extra });

  it("rotates SIGNING_ALG and, when that is another, the ID tokens' RS256", () => {
    expect(rotatedAlgorithms('RS256')).toEqual(['RS256']);
    expect(rotatedAlgorithms('ES256')).toEqual(['ES256', 'RS256']);
  });

  it('creates a key of each algorithm on first start, both signing at once', () => {
    expect(planRotations([], ['ES256', 'RS256'], at(0), DUENDE)).toEqual({
      create: [
        { algorithm: 'ES256', activatesAt: at(0) },
        { algorithm: 'RS256', activatesAt: at(0) },
      ],
      scheduleRetirement: [],
      retire: [],
    });
  });

  it('publishes the RS256 key a propagation time before it signs where only ES256 keys were', () => {
    expect(planRotations([es('es', 0)], ['ES256', 'RS256'], at(10), DUENDE).create).toEqual([{ algorithm: 'RS256', activatesAt: at(24) }]);
  });

  it('rotates each line on its own schedule and never takes the RS256 line for abandoned', () => {
    const keys = [es('es', 0), key('rsa', 30)];
    expect(planRotations(keys, ['ES256', 'RS256'], at(76), DUENDE)).toEqual({
      create: [{ algorithm: 'ES256', activatesAt: at(90) }],
      scheduleRetirement: [],
      retire: [],
    });
    const later = planRotations([es('es', 0), es('es2', 76, 90), key('rsa', 30)], ['ES256', 'RS256'], at(106), DUENDE);
    expect(later).toEqual({ create: [{ algorithm: 'RS256', activatesAt: at(120) }], scheduleRetirement: [{ kid: 'es', retiresAt: at(104) }], retire: ['es'] });
  });

  it('renews both lines on a forced rotation', () => {
    const plan = planRotations([es('es', 0), key('rsa', 0)], ['ES256', 'RS256'], at(3), DUENDE, { force: true, immediately: true });
    expect(plan.create).toEqual([
      { algorithm: 'ES256', activatesAt: at(3) },
      { algorithm: 'RS256', activatesAt: at(3) },
    ]);
  });

  it('never retires a key that signs for one of the lines, whoever scheduled it', () => {
    const keys = [es('es', 0), key('rsa', 0, 0, { retiresAt: at(5) })];
    expect(planRotations(keys, ['ES256', 'RS256'], at(10), DUENDE).retire).toEqual([]);
    expect(planKeyRotation(keys, 'ES256', at(10), DUENDE).retire).toEqual(['rsa']);
  });
});
