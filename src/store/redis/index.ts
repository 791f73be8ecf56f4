/**
 * The Redis store: the choice for several service instances. Every read-modify-write is one Lua script or
 * one MULTI, so instances sharing the server never double-count or fork the log.
 *
 * Outage policy: commands are not queued for long. While the connection is down a command waits at most
 * one reconnect attempt (<= 500 ms) and then fails with AppError `store_unavailable` (500, clear message);
 * when the server returns, the client reconnects by itself and the next command succeeds.
 *
 * Keys live under a prefix (default `svc:`), set with `?prefix=` on the URL, e.g.
 * `redis://127.0.0.1:6379/0?prefix=staging:`; the database number is the URL path as usual.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from '../../errors.ts';
import {
  type ApiKeyRecord,
  type EvalJob,
  type JobPatch,
  type JobProgress,
  queuedJob,
  type Store,
  type StoreOptions,
  type SubmissionRecord,
  type WaitlistEntry,
} from '../types.ts';

const UNAVAILABLE = 'The data store (Redis) is unavailable; try again shortly.';

class Script {
  readonly sha: string;
  constructor(readonly src: string) {
    this.sha = createHash('sha1').update(src).digest('hex');
  }
}

// Store a report; ARGV[3] = lifetime in ms ('' = kept for good), ARGV[4] = now ms. A report stored again keeps the
// longer lifetime; kept for good wins. The key expires by itself (PX); rep:exp (score = expiry) lets the sweeper and
// the prefix look-up drop expired hashes from the rep:idx index.
// KEYS: rep:<hash>, rep:idx, rep:exp; ARGV: hash, json, ttl ms or '', now ms.
const PUT_REPORT = new Script(`
local pttl = redis.call('PTTL', KEYS[1])
if ARGV[3] == '' then
  if pttl == -2 then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('PERSIST', KEYS[1]) end
  redis.call('ZREM', KEYS[3], ARGV[1])
else
  if pttl == -1 then return 0 end
  local ttl = tonumber(ARGV[3])
  if pttl == -2 then redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
  elseif pttl < ttl then redis.call('PEXPIRE', KEYS[1], ttl)
  else ttl = pttl end
  redis.call('ZADD', KEYS[3], tonumber(ARGV[4]) + ttl, ARGV[1])
end
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
`);

// KEYS[1] = key:<hash>; ARGV[1] = calls to take (all or none).
const CONSUME = new Script(`
local r = redis.call('HGET', KEYS[1], 'callsRemaining')
local n = tonumber(ARGV[1])
if not r or tonumber(r) < n then return -1 end
return redis.call('HINCRBY', KEYS[1], 'callsRemaining', -n)`);

// KEYS[1] = the window's counter, KEYS[2] = key:<hash>; ARGV[1] = ms until the window ends, ARGV[2] = cap.
// Returns {count, callsRemaining} with callsRemaining -2 when over the cap (nothing taken), -1 when none was left.
const HIT_CONSUME = new Script(`
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if n > tonumber(ARGV[2]) then return {n, -2} end
local r = redis.call('HGET', KEYS[2], 'callsRemaining')
if not r or tonumber(r) <= 0 then return {n, -1} end
return {n, redis.call('HINCRBY', KEYS[2], 'callsRemaining', -1)}`);

// KEYS[1] = the day window's counter, KEYS[2] = key:<hash>; ARGV[1] = ms until the window ends. Counts the hit and,
// on the window's first, refills the allowance to rateLimit in the same step. Returns {count, 1 when refilled}.
const HIT_REFILL = new Script(`
local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if n ~= 1 then return {n, 0} end
local f = redis.call('HMGET', KEYS[2], 'callsRemaining', 'rateLimit')
if not f[1] or not f[2] or tonumber(f[1]) >= tonumber(f[2]) then return {n, 0} end
redis.call('HSET', KEYS[2], 'callsRemaining', f[2])
return {n, 1}`);

// KEYS[1] = the list of key hashes; ARGV[1] = prefix, ARGV[2] = lower-cased email, ARGV[3] = cap, ARGV[4] = hash,
// ARGV[5] = id, ARGV[6] = verify token hash or '', then the key's fields and values. Counts the address's keys
// that are not revoked and creates the key only under the cap, in one step. Returns the count before, negated
// minus one when created (so 0 held and created is -1).
const CREATE_KEY_CAPPED = new Script(`
local held = 0
for _, h in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local f = redis.call('HMGET', ARGV[1] .. 'key:' .. h, 'email', 'revoked')
  if f[1] and string.lower(f[1]) == ARGV[2] and f[2] ~= '1' then held = held + 1 end
end
if held >= tonumber(ARGV[3]) then return held end
local k = ARGV[1] .. 'key:' .. ARGV[4]
for i = 7, #ARGV, 2 do redis.call('HSET', k, ARGV[i], ARGV[i + 1]) end
redis.call('SET', ARGV[1] .. 'keyid:' .. ARGV[5], ARGV[4])
redis.call('RPUSH', KEYS[1], ARGV[4])
if ARGV[6] ~= '' then redis.call('SET', ARGV[1] .. 'keytok:' .. ARGV[6], ARGV[4]) end
return -held - 1`);

// KEYS[1] = keyid:<id>; ARGV[1] = prefix; then field/value pairs; '' as verifyTokenHash clears it.
const UPDATE_KEY = new Script(`
local h = redis.call('GET', KEYS[1])
if not h then return 0 end
local k = ARGV[1] .. 'key:' .. h
for i = 2, #ARGV, 2 do
  local f, v = ARGV[i], ARGV[i + 1]
  if f == 'verifyTokenHash' then
    local old = redis.call('HGET', k, f)
    if old then redis.call('DEL', ARGV[1] .. 'keytok:' .. old) end
    if v == '' then redis.call('HDEL', k, f) else
      redis.call('HSET', k, f, v)
      redis.call('SET', ARGV[1] .. 'keytok:' .. v, h)
    end
  else
    redis.call('HSET', k, f, v)
  end
end
return 1`);

// KEYS[1] = keytok:<tokenHash>; ARGV[1] = prefix. Returns the key's hash or false.
const ACTIVATE = new Script(`
local h = redis.call('GET', KEYS[1])
if not h then return false end
redis.call('DEL', KEYS[1])
local k = ARGV[1] .. 'key:' .. h
redis.call('HSET', k, 'active', '1')
redis.call('HDEL', k, 'verifyTokenHash')
return h`);

// KEYS[1] = wl:idx (lower-cased email -> position), KEYS[2] = wl:list; ARGV[1] = lower email, ARGV[2] = entry JSON.
const JOIN = new Script(`
local p = redis.call('HGET', KEYS[1], ARGV[1])
if p then return {0, tonumber(p)} end
local n = redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[1], ARGV[1], n)
return {1, n}`);

// KEYS: sub:last, sub:rec (id -> JSON), sub:status (id -> status), sub:tok (token hash -> id);
// ARGV[1] = now ms, ARGV[2] = JSON, ARGV[3] = status token hash or ''.
const ADD_SUB = new Script(`
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local id = math.max(tonumber(ARGV[1]), last + 1)
redis.call('SET', KEYS[1], string.format('%d', id))
local sid = string.format('%d', id)
redis.call('HSET', KEYS[2], sid, ARGV[2])
redis.call('HSET', KEYS[3], sid, 'pending')
if ARGV[3] ~= '' then redis.call('HSET', KEYS[4], ARGV[3], sid) end
return sid`);

// KEYS: sub:status; ARGV[1] = id.
const REJECT = new Script(`
local st = redis.call('HGET', KEYS[1], ARGV[1])
if st ~= 'pending' and st ~= 'failed' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], 'rejected')
return 1`);

// Jobs are JSON in job:rec (id -> JSON); job:active is the set of queued and running ids (score = id, so oldest first).
// KEYS: sub:status, job:rec, job:active, job:conv:<id>; ARGV: id, now ms, new job JSON.
const ENQUEUE = new Script(`
local st = redis.call('HGET', KEYS[1], ARGV[1])
if not st or st == 'rejected' then return false end
local job = cjson.decode(ARGV[3])
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  local o = cjson.decode(old)
  if o.state == 'running' and (tonumber(o.leaseUntil) or 0) > tonumber(ARGV[2]) then return false end
  job.createdAt = o.createdAt
end
local enc = cjson.encode(job)
redis.call('HSET', KEYS[2], ARGV[1], enc)
redis.call('ZADD', KEYS[3], tonumber(ARGV[1]), ARGV[1])
redis.call('DEL', KEYS[4])
redis.call('HSET', KEYS[1], ARGV[1], 'queued')
return enc`);

// KEYS: job:active, job:rec, sub:status; ARGV: owner, now ms, ttl ms, now ISO.
const LEASE = new Script(`
local now = tonumber(ARGV[2])
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local raw = redis.call('HGET', KEYS[2], id)
  if not raw then
    redis.call('ZREM', KEYS[1], id)
  else
    local j = cjson.decode(raw)
    if j.state == 'queued' or (j.state == 'running' and (tonumber(j.leaseUntil) or 0) <= now) then
      j.state = 'running'
      j.leaseOwner = ARGV[1]
      j.leaseUntil = now + tonumber(ARGV[3])
      j.attempts = (tonumber(j.attempts) or 0) + 1
      j.updatedAt = ARGV[4]
      local enc = cjson.encode(j)
      redis.call('HSET', KEYS[2], id, enc)
      redis.call('HSET', KEYS[3], id, 'evaluating')
      return enc
    end
  end
end
return false`);

// Every write of a lease holder: refused (0) unless the job is running under this owner.
// KEYS: job:rec, sub:status, job:conv:<id>, job:active; ARGV: id, owner, op, ...
const HELD = new Script(`
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local j = cjson.decode(raw)
if j.state ~= 'running' or j.leaseOwner ~= ARGV[2] then return 0 end
local op = ARGV[3]
if op == 'renew' then
  j.leaseUntil = tonumber(ARGV[4])
elseif op == 'save' then
  redis.call('HSETNX', KEYS[3], ARGV[4], ARGV[5])
  j.progress = cjson.decode(ARGV[6])
else
  for k, v in pairs(cjson.decode(ARGV[4])) do j[k] = v end
  if op == 'finish' then
    j.leaseOwner = nil
    j.leaseUntil = nil
    redis.call('HSET', KEYS[2], ARGV[1], j.state)
    redis.call('ZREM', KEYS[4], ARGV[1])
  end
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(j))
return 1`);

// KEYS: ds:seq, ds:json; ARGV: expected seq, JSON.
const PUBLISH = new Script(`
local seq = tonumber(redis.call('GET', KEYS[1]) or '0')
if seq ~= tonumber(ARGV[1]) then return false end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], seq + 1)
return seq + 1`);

// KEYS: log:leaves, log:idx; ARGV = leaf hashes. Returns the index of the first.
const APPEND = new Script(`
local first = redis.call('LLEN', KEYS[1])
for i, h in ipairs(ARGV) do
  redis.call('RPUSH', KEYS[1], h)
  redis.call('HSETNX', KEYS[2], h, first + i - 1)
end
return first`);

const SET_IF_ABSENT = new Script(`
local v = redis.call('GET', KEYS[1])
if v then return v end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]`);

type KeyFields = Record<string, string>;

function keyToFields(rec: ApiKeyRecord): KeyFields {
  const f: KeyFields = {
    id: rec.id,
    hash: rec.hash,
    email: rec.email,
    plan: rec.plan,
    createdAt: rec.createdAt,
    rateLimit: String(rec.rateLimit),
    callsRemaining: String(rec.callsRemaining),
    active: rec.active ? '1' : '0',
    revoked: rec.revoked ? '1' : '0',
  };
  if (rec.name !== undefined) f.name = rec.name;
  if (rec.organization !== undefined) f.organization = rec.organization;
  if (rec.verifyTokenHash !== undefined) f.verifyTokenHash = rec.verifyTokenHash;
  return f;
}

function keyFromFields(f: KeyFields): ApiKeyRecord | null {
  if (!f.hash || !f.id) return null;
  const rec: ApiKeyRecord = {
    id: f.id,
    hash: f.hash,
    email: f.email ?? '',
    plan: f.plan ?? 'free',
    createdAt: f.createdAt ?? '',
    rateLimit: Number(f.rateLimit),
    callsRemaining: Number(f.callsRemaining),
    active: f.active === '1',
    revoked: f.revoked === '1',
  };
  if (f.name !== undefined) rec.name = f.name;
  if (f.organization !== undefined) rec.organization = f.organization;
  if (f.verifyTokenHash !== undefined) rec.verifyTokenHash = f.verifyTokenHash;
  return rec;
}

function subFrom(sid: string, json: string, status: string | null | undefined): SubmissionRecord {
  return {
    ...(JSON.parse(json) as Omit<SubmissionRecord, 'id' | 'status'>),
    id: Number(sid),
    status: (status ?? 'pending') as SubmissionRecord['status'],
  };
}

/** Split our own `prefix` query parameter off the URL; the rest goes to ioredis. */
export function parseRedisUrl(raw: string): { url: string; prefix: string } {
  const u = new URL(raw);
  const prefix = u.searchParams.get('prefix') ?? 'svc:';
  u.searchParams.delete('prefix');
  return { url: u.toString(), prefix };
}

export class RedisStore implements Store {
  /** See KeyStore.keyVersion. */
  keyVersion = 0;
  readonly kind = 'redis' as const;
  readonly prefix: string;
  private readonly client: Redis;

  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(rawUrl: string, opts: StoreOptions = {}) {
    this.now = opts.now ?? Date.now;
    const { url, prefix } = parseRedisUrl(rawUrl);
    this.prefix = prefix;
    this.client = new Redis(url, {
      maxRetriesPerRequest: 0,
      retryStrategy: (times) => Math.min(times * 100, 500),
      connectTimeout: 2000,
      commandTimeout: 2000,
    });
    // Connection errors surface as failed commands (and in the rate limiter's outage log); without a
    // listener ioredis would print every reconnect failure.
    this.client.on('error', () => {});
    this.sweeper = setInterval(() => {
      if (this.client.status === 'ready') this.sweepReports().catch(() => {});
    }, 1000);
    this.sweeper.unref();
  }

  private k(name: string): string {
    return this.prefix + name;
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('store_unavailable', UNAVAILABLE, { detail: 'store unavailable' });
    }
  }

  private async eval(script: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.evalsha(script.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return this.client.eval(script.src, keys.length, ...keys, ...args);
    }
  }

  hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetMs: number }> {
    return this.run(async () => {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const resetMs = start + windowMs;
      const rk = this.k(`rl:${windowMs}:${start}:${key}`);
      // Relative expiry, so the window follows the service's clock, not the Redis server's.
      const res = await this.client
        .multi()
        .incr(rk)
        .pexpire(rk, Math.max(1, resetMs - nowMs))
        .exec();
      const [err, count] = res?.[0] ?? [new Error('transaction aborted'), null];
      if (err) throw err;
      return { count: Number(count), resetMs };
    });
  }

  hitAndConsume(
    key: string,
    windowMs: number,
    nowMs: number,
    cap: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number; callsRemaining: number | null }> {
    return this.run(async () => {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const resetMs = start + windowMs;
      const [count, left] = (await this.eval(
        HIT_CONSUME,
        [this.k(`rl:${windowMs}:${start}:${key}`), this.k(`key:${keyHash}`)],
        [Math.max(1, resetMs - nowMs), cap],
      )) as [number, number];
      return { count: Number(count), resetMs, callsRemaining: Number(left) === -2 ? null : Number(left) };
    });
  }

  hitAndRefill(
    key: string,
    windowMs: number,
    nowMs: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number }> {
    return this.run(async () => {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const resetMs = start + windowMs;
      const [count, refilled] = (await this.eval(
        HIT_REFILL,
        [this.k(`rl:${windowMs}:${start}:${key}`), this.k(`key:${keyHash}`)],
        [Math.max(1, resetMs - nowMs)],
      )) as [number, number];
      if (Number(refilled) === 1) this.keyVersion++;
      return { count: Number(count), resetMs };
    });
  }

  createKey(rec: ApiKeyRecord): Promise<void> {
    return this.run(async () => {
      const m = this.client
        .multi()
        .hset(this.k(`key:${rec.hash}`), keyToFields(rec))
        .set(this.k(`keyid:${rec.id}`), rec.hash)
        .rpush(this.k('keys'), rec.hash);
      if (rec.verifyTokenHash) m.set(this.k(`keytok:${rec.verifyTokenHash}`), rec.hash);
      const res = await m.exec();
      const failed = res?.find(([e]) => e);
      if (!res || failed) throw failed?.[0] ?? new Error('transaction aborted');
    });
  }

  createKeyCapped(rec: ApiKeyRecord, cap: number): Promise<{ created: boolean; held: number }> {
    return this.run(async () => {
      const fields = Object.entries(keyToFields(rec)).flat();
      const args = [this.prefix, rec.email.toLowerCase(), cap, rec.hash, rec.id, rec.verifyTokenHash ?? '', ...fields];
      const n = Number(await this.eval(CREATE_KEY_CAPPED, [this.k('keys')], args));
      return n < 0 ? { created: true, held: -n - 1 } : { created: false, held: n };
    });
  }

  getKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return this.run(async () => keyFromFields(await this.client.hgetall(this.k(`key:${hash}`))));
  }

  consumeCall(hash: string, n = 1): Promise<number> {
    return this.run(async () => Number(await this.eval(CONSUME, [this.k(`key:${hash}`)], [n])));
  }

  listKeys(): Promise<ApiKeyRecord[]> {
    return this.run(async () => {
      const hashes = await this.client.lrange(this.k('keys'), 0, -1);
      const p = this.client.pipeline();
      for (const h of hashes) p.hgetall(this.k(`key:${h}`));
      const res = (await p.exec()) ?? [];
      return res.map(([, f]) => keyFromFields(f as KeyFields)).filter((r): r is ApiKeyRecord => r !== null);
    });
  }

  updateKey(id: string, patch: Parameters<Store['updateKey']>[1]): Promise<boolean> {
    this.keyVersion++;
    return this.run(async () => {
      const args: string[] = [this.prefix];
      if (patch.revoked !== undefined) args.push('revoked', patch.revoked ? '1' : '0');
      if (patch.active !== undefined) args.push('active', patch.active ? '1' : '0');
      if (patch.callsRemaining !== undefined) args.push('callsRemaining', String(patch.callsRemaining));
      if (patch.rateLimit !== undefined) args.push('rateLimit', String(patch.rateLimit));
      if ('verifyTokenHash' in patch) args.push('verifyTokenHash', patch.verifyTokenHash ?? '');
      return Number(await this.eval(UPDATE_KEY, [this.k(`keyid:${id}`)], args)) === 1;
    });
  }

  activateByToken(tokenHash: string): Promise<ApiKeyRecord | null> {
    this.keyVersion++;
    return this.run(async () => {
      const h = await this.eval(ACTIVATE, [this.k(`keytok:${tokenHash}`)], [this.prefix]);
      return typeof h === 'string' ? keyFromFields(await this.client.hgetall(this.k(`key:${h}`))) : null;
    });
  }

  joinWaitlist(entry: WaitlistEntry): Promise<{ created: boolean; position: number }> {
    return this.run(async () => {
      const res = (await this.eval(
        JOIN,
        [this.k('wl:idx'), this.k('wl:list')],
        [entry.email.toLowerCase(), JSON.stringify(entry)],
      )) as [number, number];
      return { created: res[0] === 1, position: Number(res[1]) };
    });
  }

  listWaitlist(): Promise<(WaitlistEntry & { position: number })[]> {
    return this.run(async () => {
      const rows = await this.client.lrange(this.k('wl:list'), 0, -1);
      return rows.map((json, i) => ({ ...(JSON.parse(json) as WaitlistEntry), position: i + 1 }));
    });
  }

  addSubmission(rec: Omit<SubmissionRecord, 'id' | 'status'>, nowMs: number): Promise<SubmissionRecord> {
    return this.run(async () => {
      const keys = [this.k('sub:last'), this.k('sub:rec'), this.k('sub:status'), this.k('sub:tok')];
      const sid = await this.eval(ADD_SUB, keys, [Math.floor(nowMs), JSON.stringify(rec), rec.statusTokenHash ?? '']);
      return { ...rec, id: Number(sid), status: 'pending' };
    });
  }

  listSubmissions(): Promise<SubmissionRecord[]> {
    return this.run(async () => {
      const [recs, statuses] = await Promise.all([
        this.client.hgetall(this.k('sub:rec')),
        this.client.hgetall(this.k('sub:status')),
      ]);
      return Object.entries(recs)
        .map(([sid, json]) => subFrom(sid, json, statuses[sid]))
        .sort((a, b) => a.id - b.id);
    });
  }

  getSubmission(id: number): Promise<SubmissionRecord | null> {
    return this.run(async () => {
      const sid = String(id);
      const [json, status] = await Promise.all([
        this.client.hget(this.k('sub:rec'), sid),
        this.client.hget(this.k('sub:status'), sid),
      ]);
      return json === null ? null : subFrom(sid, json, status);
    });
  }

  getSubmissionByStatusToken(tokenHash: string): Promise<SubmissionRecord | null> {
    return this.run(async () => {
      const sid = await this.client.hget(this.k('sub:tok'), tokenHash);
      return sid === null ? null : this.getSubmission(Number(sid));
    });
  }

  rejectSubmission(id: number): Promise<boolean> {
    return this.run(async () => Number(await this.eval(REJECT, [this.k('sub:status')], [String(id)])) === 1);
  }

  enqueueJob(id: number, params: { apiKeyEnv?: string; model?: string }, nowMs: number): Promise<EvalJob | null> {
    return this.run(async () => {
      const job = queuedJob(id, params, nowMs);
      const keys = [this.k('sub:status'), this.k('job:rec'), this.k('job:active'), this.k(`job:conv:${id}`)];
      const res = await this.eval(ENQUEUE, keys, [String(id), Math.floor(nowMs), JSON.stringify(job)]);
      return typeof res === 'string' ? (JSON.parse(res) as EvalJob) : null;
    });
  }

  getJob(id: number): Promise<EvalJob | null> {
    return this.run(async () => {
      const json = await this.client.hget(this.k('job:rec'), String(id));
      return json === null ? null : (JSON.parse(json) as EvalJob);
    });
  }

  listJobs(): Promise<EvalJob[]> {
    return this.run(async () =>
      Object.values(await this.client.hgetall(this.k('job:rec')))
        .map((json) => JSON.parse(json) as EvalJob)
        .sort((a, b) => a.id - b.id),
    );
  }

  leaseJob(owner: string, nowMs: number, ttlMs: number): Promise<EvalJob | null> {
    return this.run(async () => {
      const keys = [this.k('job:active'), this.k('job:rec'), this.k('sub:status')];
      const res = await this.eval(LEASE, keys, [owner, Math.floor(nowMs), ttlMs, new Date(nowMs).toISOString()]);
      return typeof res === 'string' ? (JSON.parse(res) as EvalJob) : null;
    });
  }

  private held(id: number, owner: string, op: string, ...args: (string | number)[]): Promise<boolean> {
    return this.run(async () => {
      const keys = [this.k('job:rec'), this.k('sub:status'), this.k(`job:conv:${id}`), this.k('job:active')];
      return Number(await this.eval(HELD, keys, [String(id), owner, op, ...args])) === 1;
    });
  }

  renewLease(id: number, owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    return this.held(id, owner, 'renew', Math.floor(nowMs) + ttlMs);
  }

  saveConversation(id: number, owner: string, key: string, json: string, progress: JobProgress): Promise<boolean> {
    return this.held(id, owner, 'save', key, json, JSON.stringify(progress));
  }

  listConversations(id: number): Promise<Map<string, string>> {
    return this.run(async () => new Map(Object.entries(await this.client.hgetall(this.k(`job:conv:${id}`)))));
  }

  updateJob(id: number, owner: string, patch: JobPatch): Promise<boolean> {
    return this.held(id, owner, 'patch', JSON.stringify(patch));
  }

  finishJob(
    id: number,
    owner: string,
    outcome: { state: 'done' | 'failed'; error?: string; reportHash?: string },
    nowMs: number,
  ): Promise<boolean> {
    return this.held(id, owner, 'finish', JSON.stringify({ ...outcome, updatedAt: new Date(nowMs).toISOString() }));
  }

  datasetSeq(): Promise<number> {
    return this.run(async () => Number((await this.client.get(this.k('ds:seq'))) ?? 0));
  }

  getPublishedDataset(): Promise<{ seq: number; json: string } | null> {
    return this.run(async () => {
      const [seq, json] = await this.client.mget(this.k('ds:seq'), this.k('ds:json'));
      return seq === null || seq === undefined || json === null || json === undefined
        ? null
        : { seq: Number(seq), json };
    });
  }

  publishDataset(json: string, expectedSeq: number): Promise<number | null> {
    return this.run(async () => {
      const res = await this.eval(PUBLISH, [this.k('ds:seq'), this.k('ds:json')], [expectedSeq, json]);
      return res === null || res === undefined ? null : Number(res);
    });
  }

  putReport(hash: string, canonicalJson: string, opts: { ttlMs?: number } = {}): Promise<void> {
    return this.run(async () => {
      await this.eval(
        PUT_REPORT,
        [this.k(`rep:${hash}`), this.k('rep:idx'), this.k('rep:exp')],
        [hash, canonicalJson, opts.ttlMs === undefined ? '' : Math.max(1, Math.round(opts.ttlMs)), this.now()],
      );
    });
  }

  getReport(hash: string): Promise<string | null> {
    return this.run(() => this.client.get(this.k(`rep:${hash}`)));
  }

  findReportsByPrefix(prefix: string, limit: number): Promise<string[]> {
    return this.run(async () => {
      const hits = await this.client.zrangebylex(this.k('rep:idx'), `[${prefix}`, `(${prefix}~`, 'LIMIT', 0, limit);
      if (hits.length === 0) return hits;
      // Expired score reports whose index entry the sweeper has not dropped yet are not listed.
      const until = await this.client.zmscore(this.k('rep:exp'), ...hits);
      const now = this.now();
      return hits.filter((_, i) => until[i] === null || Number(until[i]) > now);
    });
  }

  /** Drop expired score reports' index entries (their keys expire by themselves), at most `limit`. */
  async sweepReports(limit = 500): Promise<number> {
    const gone = await this.client.zrangebyscore(this.k('rep:exp'), '-inf', this.now(), 'LIMIT', 0, limit);
    if (gone.length > 0) {
      await this.client
        .multi()
        .zrem(this.k('rep:idx'), ...gone)
        .zrem(this.k('rep:exp'), ...gone)
        .exec();
    }
    return gone.length;
  }

  appendLeaves(leafHashes: string[]): Promise<number> {
    return this.run(async () => {
      if (leafHashes.length === 0) return this.client.llen(this.k('log:leaves'));
      return Number(await this.eval(APPEND, [this.k('log:leaves'), this.k('log:idx')], leafHashes));
    });
  }

  logSize(): Promise<number> {
    return this.run(() => this.client.llen(this.k('log:leaves')));
  }

  getLeaves(start: number, end: number): Promise<string[]> {
    return this.run(async () => (end <= start ? [] : this.client.lrange(this.k('log:leaves'), start, end - 1)));
  }

  findLeaf(leafHash: string): Promise<number> {
    return this.run(async () => {
      const v = await this.client.hget(this.k('log:idx'), leafHash);
      return v === null ? -1 : Number(v);
    });
  }

  putCheckpoint(size: number, json: string): Promise<void> {
    return this.run(async () => {
      await this.client.hset(this.k('log:cp'), String(size), json);
    });
  }

  getCheckpoint(size: number): Promise<string | null> {
    return this.run(() => this.client.hget(this.k('log:cp'), String(size)));
  }

  setIfAbsent(key: string, value: string): Promise<string> {
    return this.run(async () => String(await this.eval(SET_IF_ABSENT, [this.k(`kv:${key}`)], [value])));
  }

  /**
   * Does the server persist every acknowledged write? Durable means the append-only file is on
   * (`appendonly yes`) with `appendfsync always` or `everysec` (at most a second of writes lost in a crash).
   * RDB snapshots alone (`save …`) lose everything since the last snapshot. `durable: null` when the server
   * refuses CONFIG (managed Redis often does): the operator has to check.
   */
  async persistence(): Promise<{ durable: boolean | null; detail: string }> {
    try {
      const [, aof] = (await this.client.call('CONFIG', 'GET', 'appendonly')) as [string, string];
      const [, fsync] = (await this.client.call('CONFIG', 'GET', 'appendfsync')) as [string, string];
      const [, save] = (await this.client.call('CONFIG', 'GET', 'save')) as [string, string];
      const durable = aof === 'yes' && (fsync === 'always' || fsync === 'everysec');
      return { durable, detail: `appendonly=${aof} appendfsync=${fsync} save="${save}"` };
    } catch (err) {
      return { durable: null, detail: `CONFIG GET refused: ${(err as Error).message.split('\n')[0]}` };
    }
  }

  /** True when the server answers PING within 500 ms; never throws. */
  async ping(): Promise<boolean> {
    const status = this.client.status;
    if (status === 'end' || status === 'close' || status === 'reconnecting') return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), 500)));
      return (await Promise.race([this.client.ping(), timeout])) === 'PONG';
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    try {
      if (this.client.status === 'ready') await this.client.quit();
      else this.client.disconnect();
    } catch {
      this.client.disconnect();
    }
  }

  /** Delete every key under this store's prefix (tests only). */
  async destroyAll(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await this.client.del(...keys);
    } while (cursor !== '0');
  }
}
