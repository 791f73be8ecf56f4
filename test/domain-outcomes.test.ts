/**
 * The domain speaks no HTTP (#15 item 4): use cases answer outcomes, and src/http/outcomes.ts alone turns them into
 * statuses and catalogue codes. "Store not configured" is one predicate (isStoreConfigured), read in one place.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { activateKey, checkBearer, issueApiKey, keyStatus, MAX_KEYS_PER_EMAIL } from '../src/domain/keys.ts';
import { joinWaitlist } from '../src/domain/waitlist.ts';
import { orRefuse, refusal, waitlistReply } from '../src/http/outcomes.ts';
import { MemoryStore, SqliteStore } from '../src/store/index.ts';
import { tmpDir } from './helpers.ts';

const NOW = Date.parse('2026-11-24T10:00:00Z');
const mailer = { send: async () => true };
const config = { email: { admin: undefined }, publicUrl: 'http://svc.test' } as never;
const root = path.resolve(import.meta.dirname, '..');

describe('domain outcomes', () => {
  it('no domain module imports the web framework, the HTTP layer or the error catalogue, or writes a status', () => {
    const dir = path.join(root, 'src/domain');
    for (const file of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      assert.doesNotMatch(text, /from ['"](?:fastify|@fastify\/[^'"]+|\.\.\/http\/[^'"]+|\.\.\/errors\.ts)['"]/, file);
      assert.doesNotMatch(text, /\bstatus(?:Code)?: *[1-5]\d\d\b|\.code\([1-5]\d\d\)|www-authenticate/i, file);
    }
  });

  it('"store not configured" is an outcome of keys and the waitlist, answered 500 store_not_configured', async () => {
    const memory = new MemoryStore();
    const outcomes = [
      await joinWaitlist({ store: memory, mailer, config }, { email: 'a@example.com' }, NOW),
      await issueApiKey(memory, { email: 'a@example.com' }, NOW),
      await keyStatus(memory, `sk-svc-${'0'.repeat(32)}`),
      await activateKey(memory, 'x'.repeat(43)),
    ];
    for (const o of outcomes) {
      assert.deepEqual(o, { kind: 'store_not_configured' });
      assert.throws(
        () => orRefuse(o),
        (e: { code: string; status: number }) => e.code === 'store_not_configured' && e.status === 500,
      );
    }
  });

  it('the waitlist answers joined, then already_listed; HTTP maps them to 201 and 200', async () => {
    const store = new SqliteStore(path.join(tmpDir(), 'svc.db'));
    try {
      const first = await joinWaitlist({ store, mailer, config }, { email: 'Ann@Example.com' }, NOW);
      assert.deepEqual(first, { kind: 'joined', position: 1, emailSent: true });
      const again = await joinWaitlist({ store, mailer, config }, { email: 'ann@example.com' }, NOW);
      assert.deepEqual(again, { kind: 'already_listed', position: 1 });
      assert.equal(waitlistReply(first).status, 201);
      assert.deepEqual(waitlistReply(again), {
        status: 200,
        body: { success: true, message: 'You are already on the waitlist.', position: 1 },
      });
    } finally {
      await store.close();
    }
  });

  it('keys: too_many_keys and refused bearers are outcomes; HTTP maps them to 409 and 401 with WWW-Authenticate', async () => {
    const store = new SqliteStore(path.join(tmpDir(), 'svc.db'));
    try {
      let created: Awaited<ReturnType<typeof issueApiKey>> | undefined;
      for (let i = 0; i < MAX_KEYS_PER_EMAIL; i++) created = await issueApiKey(store, { email: 'k@example.com' }, NOW);
      assert.equal(created?.kind, 'created');
      const over = await issueApiKey(store, { email: 'K@example.com' }, NOW);
      assert.deepEqual(over, { kind: 'too_many_keys', held: MAX_KEYS_PER_EMAIL });
      const e409 = refusal(over as Extract<typeof over, { kind: 'too_many_keys' }>);
      assert.equal(e409.code, 'too_many_keys');
      assert.equal(e409.status, 409);

      assert.deepEqual(await checkBearer(store, undefined, NOW), { kind: 'none' });
      assert.deepEqual(await checkBearer(store, 'Basic abc', NOW), { kind: 'refused', problem: 'malformed_header' });
      assert.deepEqual(await checkBearer(store, 'Bearer sk-svc-XYZ', NOW), {
        kind: 'refused',
        problem: 'malformed_key',
      });
      const unknown = await checkBearer(store, `Bearer sk-svc-${'a'.repeat(32)}`, NOW);
      assert.deepEqual(unknown, { kind: 'refused', problem: 'unknown' });
      const e401 = refusal(unknown as Extract<typeof unknown, { kind: 'refused' }>);
      assert.equal(e401.code, 'unauthorized');
      assert.equal(e401.status, 401);
      assert.equal(e401.extra.headers?.['www-authenticate'], 'Bearer realm="svc"');
      if (created?.kind !== 'created') throw new Error('unreachable');
      const ok = await checkBearer(store, `Bearer ${created.apiKey}`, NOW);
      assert.equal(ok.kind === 'key' && ok.record.id, created.record.id);
    } finally {
      await store.close();
    }
  });

  it('reads "store not configured" through one predicate', () => {
    const uses: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && /kind\s*[!=]==\s*'memory'/.test(fs.readFileSync(p, 'utf8')))
          uses.push(path.relative(root, p));
      }
    };
    walk(path.join(root, 'src'));
    assert.deepEqual(uses, ['src/config.ts']);
  });
});
