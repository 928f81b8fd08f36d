import Redis, { type Result } from 'ioredis';
import { CounterStore, isGate, type CounterOp, type CounterReading } from './counter-store';

// Every key is a hash { c = count, u = until (epoch ms) } that expires by itself. One script runs
// all of a request's operations, so a request costs one round trip, atomically: its gates (see
// counter-store.ts) are all counted or, when one of their keys blocks, none. The back-off
// arithmetic is the same as backOffMs() in counter-store.ts.
const APPLY_SCRIPT = `
local now = tonumber(ARGV[1])
local function read(key)
  local values = redis.call('HMGET', key, 'c', 'u')
  return tonumber(values[1]) or 0, tonumber(values[2]) or 0
end
local refused = false
for i, key in ipairs(KEYS) do
  local base = 1 + (i - 1) * 5
  if ARGV[base + 5] == '1' then
    local count, untilMs = read(key)
    if untilMs > now and (ARGV[base + 1] == 'fail' or count >= tonumber(ARGV[base + 3])) then refused = true end
  end
end
local out = {}
for i, key in ipairs(KEYS) do
  local base = 1 + (i - 1) * 5
  local kind, a, b, c = ARGV[base + 1], tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
  local count, untilMs, gateRefused = 0, 0, 0
  if refused and ARGV[base + 5] == '1' then
    count, untilMs = read(key)
    gateRefused = 1
  elseif kind == 'hit' then
    count = redis.call('HINCRBY', key, 'c', 1)
    if count == 1 then
      untilMs = now + a
      redis.call('HSET', key, 'u', untilMs)
      redis.call('PEXPIREAT', key, untilMs)
    else
      untilMs = tonumber(redis.call('HGET', key, 'u')) or 0
    end
  elseif kind == 'fail' then
    count = redis.call('HINCRBY', key, 'c', 1)
    if count >= a then untilMs = math.floor(now + math.min(c, b * 2 ^ math.min(count - a, 30))) end
    redis.call('HSET', key, 'u', untilMs)
    redis.call('PEXPIREAT', key, math.max(untilMs, now) + c)
  elseif kind == 'peek' then
    count, untilMs = read(key)
  elseif kind == 'release' then
    count, untilMs = read(key)
    if count > 0 then count = redis.call('HINCRBY', key, 'c', -1) end
  else
    redis.call('DEL', key)
  end
  out[i] = { count, untilMs, gateRefused }
end
return out
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    tollgateThrottle(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Result<[number, number, number][], Context>;
  }
}

/** Counters shared by every instance through Redis; each call is one script, bounded by `timeoutMs`. */
export class RedisCounterStore extends CounterStore {
  private readonly redis: Redis;

  constructor(url: string, timeoutMs: number) {
    super();
    this.redis = new Redis(url, {
      keyPrefix: 'tollgate:throttle:',
      commandTimeout: timeoutMs,
      connectTimeout: Math.max(timeoutMs, 1000),
      // Fail at once while disconnected instead of queueing: the caller falls back to memory.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.defineCommand('tollgateThrottle', { lua: APPLY_SCRIPT });
    // Errors reach the caller as rejected commands; the listener only keeps ioredis from crashing the process.
    this.redis.on('error', () => undefined);
  }

  async apply(ops: readonly CounterOp[], nowMs: number): Promise<CounterReading[]> {
    const args: (string | number)[] = [nowMs];
    for (const op of ops) args.push(...scriptArguments(op));
    const replies = await this.redis.tollgateThrottle(ops.length, ...ops.map((op) => op.key), ...args);
    return replies.map(([count, untilMs, refused]) =>
      Number(refused) === 1 ? { count: Number(count), untilMs: Number(untilMs), refused: true } : { count: Number(count), untilMs: Number(untilMs) },
    );
  }

  /** Whether the first connection is up within `timeoutMs` (commands fail at once until it is). */
  async connected(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.redis.once('ready', () => (clearTimeout(timer), resolve(true)));
    });
  }

  /** Resolves once Redis answers again. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  close(): void {
    this.redis.disconnect();
  }
}

function scriptArguments(op: CounterOp): (string | number)[] {
  const gate = isGate(op) ? 1 : 0;
  switch (op.kind) {
    case 'hit':
      return ['hit', op.windowMs, op.limit, 0, gate];
    case 'fail':
      return ['fail', op.policy.threshold, op.policy.baseMs, op.policy.maxMs, gate];
    default:
      return [op.kind, 0, 0, 0, 0];
  }
}
