/**
 * The in-memory store: the "not configured" store (SVC_STORE_URL=memory) and the rate limiter's fallback
 * during an outage. Nothing survives a restart. Every method is synchronous inside, so each is atomic.
 */
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

export class MemoryStore implements Store {
  /** See KeyStore.keyVersion. */
  keyVersion = 0;
  readonly kind = 'memory' as const;
  private windows = new Map<string, { count: number; resetMs: number }>();
  private hitsSinceSweep = 0;
  private keys = new Map<string, ApiKeyRecord>(); // by hash
  private waitlist: WaitlistEntry[] = [];
  private waitlistIndex = new Map<string, number>(); // lower-cased email -> position
  private submissions: SubmissionRecord[] = [];
  private lastSubmissionId = 0;
  private reports = new Map<string, string>();
  /** Reports with a lifetime: hash -> expiry (ms). Insertion order is nearly expiry order (one TTL setting). */
  private reportExpiry = new Map<string, number>();
  private readonly now: () => number;

  constructor(opts: StoreOptions = {}) {
    this.now = opts.now ?? Date.now;
  }
  private leaves: string[] = [];
  private leafIndex = new Map<string, number>();
  private checkpoints = new Map<number, string>();
  private settings = new Map<string, string>();
  private jobs = new Map<number, EvalJob>();
  private conversations = new Map<number, Map<string, string>>();
  private dataset: { seq: number; json: string } | null = null;

  async hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetMs: number }> {
    return this.hitNow(key, windowMs, nowMs);
  }

  async hitAndRefill(
    key: string,
    windowMs: number,
    nowMs: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number }> {
    const h = this.hitNow(key, windowMs, nowMs);
    const rec = h.count === 1 ? this.keys.get(keyHash) : undefined;
    if (rec && rec.callsRemaining < rec.rateLimit) {
      rec.callsRemaining = rec.rateLimit;
      this.keyVersion++;
    }
    return h;
  }

  private hitNow(key: string, windowMs: number, nowMs: number): { count: number; resetMs: number } {
    if (++this.hitsSinceSweep >= 10_000) this.sweep(nowMs);
    const resetMs = Math.floor(nowMs / windowMs) * windowMs + windowMs;
    const mapKey = `${windowMs}:${key}`;
    const cur = this.windows.get(mapKey);
    if (cur && cur.resetMs === resetMs) {
      cur.count += 1;
      return { count: cur.count, resetMs };
    }
    this.windows.set(mapKey, { count: 1, resetMs });
    return { count: 1, resetMs };
  }

  async hitAndConsume(
    key: string,
    windowMs: number,
    nowMs: number,
    cap: number,
    keyHash: string,
  ): Promise<{ count: number; resetMs: number; callsRemaining: number | null }> {
    const h = await this.hit(key, windowMs, nowMs);
    return { ...h, callsRemaining: h.count <= cap ? await this.consumeCall(keyHash) : null };
  }

  private sweep(nowMs: number): void {
    this.hitsSinceSweep = 0;
    for (const [k, v] of this.windows) if (v.resetMs <= nowMs) this.windows.delete(k);
  }

  async createKey(rec: ApiKeyRecord): Promise<void> {
    if (this.keys.has(rec.hash)) throw new Error('duplicate key hash');
    this.keys.set(rec.hash, { ...rec });
  }

  async createKeyCapped(rec: ApiKeyRecord, cap: number): Promise<{ created: boolean; held: number }> {
    const email = rec.email.toLowerCase();
    let held = 0;
    for (const k of this.keys.values()) if (!k.revoked && k.email.toLowerCase() === email) held++;
    if (held >= cap) return { created: false, held };
    if (this.keys.has(rec.hash)) throw new Error('duplicate key hash');
    this.keys.set(rec.hash, { ...rec });
    return { created: true, held };
  }

  async getKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    const rec = this.keys.get(hash);
    return rec ? { ...rec } : null;
  }

  async consumeCall(hash: string, n = 1): Promise<number> {
    const rec = this.keys.get(hash);
    if (!rec || rec.callsRemaining < n) return -1;
    rec.callsRemaining -= n;
    return rec.callsRemaining;
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return [...this.keys.values()]
      .map((r) => ({ ...r }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async updateKey(id: string, patch: Parameters<Store['updateKey']>[1]): Promise<boolean> {
    this.keyVersion++;
    for (const rec of this.keys.values()) {
      if (rec.id !== id) continue;
      Object.assign(rec, definedOnly(patch));
      if ('verifyTokenHash' in patch && patch.verifyTokenHash === undefined) delete rec.verifyTokenHash;
      return true;
    }
    return false;
  }

  async activateByToken(tokenHash: string): Promise<ApiKeyRecord | null> {
    this.keyVersion++;
    for (const rec of this.keys.values()) {
      if (rec.verifyTokenHash !== tokenHash) continue;
      rec.active = true;
      delete rec.verifyTokenHash;
      return { ...rec };
    }
    return null;
  }

  async joinWaitlist(entry: WaitlistEntry): Promise<{ created: boolean; position: number }> {
    const lower = entry.email.toLowerCase();
    const existing = this.waitlistIndex.get(lower);
    if (existing !== undefined) return { created: false, position: existing };
    this.waitlist.push({ ...entry });
    const position = this.waitlist.length;
    this.waitlistIndex.set(lower, position);
    return { created: true, position };
  }

  async listWaitlist(): Promise<(WaitlistEntry & { position: number })[]> {
    return this.waitlist.map((e, i) => ({ ...e, position: i + 1 }));
  }

  async addSubmission(rec: Omit<SubmissionRecord, 'id' | 'status'>, nowMs: number): Promise<SubmissionRecord> {
    const id = Math.max(Math.floor(nowMs), this.lastSubmissionId + 1);
    this.lastSubmissionId = id;
    const full: SubmissionRecord = { ...rec, id, status: 'pending' };
    this.submissions.push(full);
    return { ...full };
  }

  async listSubmissions(): Promise<SubmissionRecord[]> {
    return this.submissions.map((s) => ({ ...s }));
  }

  async getSubmission(id: number): Promise<SubmissionRecord | null> {
    const s = this.submissions.find((x) => x.id === id);
    return s ? { ...s } : null;
  }

  async getSubmissionByStatusToken(tokenHash: string): Promise<SubmissionRecord | null> {
    const s = this.submissions.find((x) => x.statusTokenHash === tokenHash);
    return s ? { ...s } : null;
  }

  async rejectSubmission(id: number): Promise<boolean> {
    const s = this.submissions.find((x) => x.id === id);
    if (!s || (s.status !== 'pending' && s.status !== 'failed')) return false;
    s.status = 'rejected';
    return true;
  }

  async enqueueJob(id: number, params: { apiKeyEnv?: string; model?: string }, nowMs: number): Promise<EvalJob | null> {
    const sub = this.submissions.find((x) => x.id === id);
    if (!sub || sub.status === 'rejected') return null;
    const old = this.jobs.get(id);
    if (old && old.state === 'running' && (old.leaseUntil ?? 0) > nowMs) return null;
    const job = queuedJob(id, params, nowMs, old?.createdAt);
    this.jobs.set(id, job);
    this.conversations.delete(id);
    sub.status = 'queued';
    return structuredClone(job);
  }

  async getJob(id: number): Promise<EvalJob | null> {
    const j = this.jobs.get(id);
    return j ? structuredClone(j) : null;
  }

  async listJobs(): Promise<EvalJob[]> {
    return [...this.jobs.values()].sort((a, b) => a.id - b.id).map((j) => structuredClone(j));
  }

  async leaseJob(owner: string, nowMs: number, ttlMs: number): Promise<EvalJob | null> {
    const next = [...this.jobs.values()]
      .sort((a, b) => a.id - b.id)
      .find((j) => j.state === 'queued' || (j.state === 'running' && (j.leaseUntil ?? 0) <= nowMs));
    if (!next) return null;
    next.state = 'running';
    next.leaseOwner = owner;
    next.leaseUntil = nowMs + ttlMs;
    next.attempts += 1;
    next.updatedAt = new Date(nowMs).toISOString();
    const sub = this.submissions.find((x) => x.id === next.id);
    if (sub) sub.status = 'evaluating';
    return structuredClone(next);
  }

  private held(id: number, owner: string): EvalJob | undefined {
    const j = this.jobs.get(id);
    return j && j.state === 'running' && j.leaseOwner === owner ? j : undefined;
  }

  async renewLease(id: number, owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const j = this.held(id, owner);
    if (!j) return false;
    j.leaseUntil = nowMs + ttlMs;
    return true;
  }

  async saveConversation(
    id: number,
    owner: string,
    key: string,
    json: string,
    progress: JobProgress,
  ): Promise<boolean> {
    const j = this.held(id, owner);
    if (!j) return false;
    let convs = this.conversations.get(id);
    if (!convs) this.conversations.set(id, (convs = new Map()));
    if (!convs.has(key)) convs.set(key, json);
    j.progress = { ...progress };
    return true;
  }

  async listConversations(id: number): Promise<Map<string, string>> {
    return new Map(this.conversations.get(id) ?? []);
  }

  async updateJob(id: number, owner: string, patch: JobPatch): Promise<boolean> {
    const j = this.held(id, owner);
    if (!j) return false;
    Object.assign(j, structuredClone(definedOnly(patch)));
    return true;
  }

  async finishJob(
    id: number,
    owner: string,
    outcome: { state: 'done' | 'failed'; error?: string; reportHash?: string },
    nowMs: number,
  ): Promise<boolean> {
    const j = this.held(id, owner);
    if (!j) return false;
    j.state = outcome.state;
    if (outcome.error !== undefined) j.error = outcome.error;
    if (outcome.reportHash !== undefined) j.reportHash = outcome.reportHash;
    delete j.leaseOwner;
    delete j.leaseUntil;
    j.updatedAt = new Date(nowMs).toISOString();
    const sub = this.submissions.find((x) => x.id === id);
    if (sub) sub.status = outcome.state;
    return true;
  }

  async datasetSeq(): Promise<number> {
    return this.dataset?.seq ?? 0;
  }

  async getPublishedDataset(): Promise<{ seq: number; json: string } | null> {
    return this.dataset ? { ...this.dataset } : null;
  }

  async publishDataset(json: string, expectedSeq: number): Promise<number | null> {
    if ((this.dataset?.seq ?? 0) !== expectedSeq) return null;
    this.dataset = { seq: expectedSeq + 1, json };
    return expectedSeq + 1;
  }

  async putReport(hash: string, canonicalJson: string, opts: { ttlMs?: number } = {}): Promise<void> {
    const now = this.now();
    this.evictReports(now);
    const had = this.reports.has(hash) && !this.expired(hash, now);
    const until = this.reportExpiry.get(hash);
    if (!had) this.reports.set(hash, canonicalJson);
    if (opts.ttlMs === undefined) this.reportExpiry.delete(hash);
    else if (!had || until !== undefined) {
      this.reportExpiry.delete(hash);
      this.reportExpiry.set(hash, Math.max(had ? (until ?? 0) : 0, now + opts.ttlMs));
    }
  }

  async getReport(hash: string): Promise<string | null> {
    return this.expired(hash, this.now()) ? null : (this.reports.get(hash) ?? null);
  }

  private expired(hash: string, now: number): boolean {
    const until = this.reportExpiry.get(hash);
    return until !== undefined && until <= now;
  }

  /** Drop expired reports from the front of the expiry order, at most 500 a call. */
  private evictReports(now: number): void {
    let n = 0;
    for (const [hash, until] of this.reportExpiry) {
      if (until > now || n++ >= 500) break;
      this.reportExpiry.delete(hash);
      this.reports.delete(hash);
    }
  }

  async findReportsByPrefix(prefix: string, limit: number): Promise<string[]> {
    const out: string[] = [];
    const now = this.now();
    for (const h of [...this.reports.keys()].sort()) {
      if (out.length >= limit) break;
      if (h.startsWith(prefix) && !this.expired(h, now)) out.push(h);
    }
    return out;
  }

  async appendLeaves(leafHashes: string[]): Promise<number> {
    const first = this.leaves.length;
    for (const h of leafHashes) {
      if (!this.leafIndex.has(h)) this.leafIndex.set(h, this.leaves.length);
      this.leaves.push(h);
    }
    return first;
  }

  async logSize(): Promise<number> {
    return this.leaves.length;
  }

  async getLeaves(start: number, end: number): Promise<string[]> {
    return this.leaves.slice(start, end);
  }

  async findLeaf(leafHash: string): Promise<number> {
    return this.leafIndex.get(leafHash) ?? -1;
  }

  async putCheckpoint(size: number, json: string): Promise<void> {
    this.checkpoints.set(size, json);
  }

  async getCheckpoint(size: number): Promise<string | null> {
    return this.checkpoints.get(size) ?? null;
  }

  async setIfAbsent(key: string, value: string): Promise<string> {
    const cur = this.settings.get(key);
    if (cur !== undefined) return cur;
    this.settings.set(key, value);
    return value;
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
