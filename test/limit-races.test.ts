/**
 * Every limit the service enforces by counting stored records or counters, under simultaneous requests, on each
 * store: the limit holds, and nothing acknowledged (200/201) is lost. The per-address key cap has its own file
 * (key-cap-race.test.ts). Redis runs under a fresh `svctest:limitrace:<random>:` prefix (store-helpers.ts).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { DAY_MS, createApiKey } from '../src/domain/keys.ts';
import { capPerRecipient, type MailMessage } from '../src/domain/email.ts';
import { MemoryStore, RedisStore, SqliteStore, type Store } from '../src/store/index.ts';
import { tmpDir } from './helpers.ts';
import { startFakeOpenAI } from './fake-openai.ts';
import { freshIp, makeServiceApp, redisSkip, redisTestUrl } from './store-helpers.ts';
import path from 'node:path';

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const SCORE = { prompt: 'Is this plan good?', response: 'Yes.' };
const SUBMISSION = {
  model_name: 'Model X',
  vendor: 'Vendor',
  api_endpoint: 'https://api.example.com/v1',
  contact_email: 'ml@example.com',
};

type ServiceApp = Awaited<ReturnType<typeof makeServiceApp>>;

const count = <T>(xs: T[], f: (x: T) => boolean) => xs.filter(f).length;

/** A POST with an API key, from an address of its own (so only the key's limits apply). */
function keyed(app: ServiceApp['app'], apiKey: string, url: string, payload: object) {
  return app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: freshIp(),
    headers: { authorization: `Bearer ${apiKey}` },
  });
}

/**
 * `store` whose named methods wait `ms` before they run: the store of another instance, or a remote one, where
 * other requests' writes land between two of one request's calls. So a race that needs more than one process shows
 * in this one, and the test does not depend on timing luck.
 */
function slowed(store: Store, methods: (keyof Store)[], ms: number): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      if (!methods.includes(prop as keyof Store)) return v.bind(target);
      return async (...args: unknown[]) => {
        await new Promise((r) => setTimeout(r, ms));
        return v.apply(target, args);
      };
    },
  });
}

function suite(name: string, makeStore: () => Store, opts: { skip?: false | string; configured: boolean }) {
  describe(`limits under simultaneous requests (${name})`, { skip: opts.skip ?? false }, () => {
    const open: ServiceApp[] = [];
    const make = async (o: Omit<Parameters<typeof makeServiceApp>[0], 'store'> & { store?: Store } = {}) => {
      const store = o.store ?? makeStore();
      const t = await makeServiceApp({ now: () => NOW, ...o, store });
      open.push(t);
      return { ...t, store };
    };
    after(async () => {
      for (const t of open) await t.close().catch(() => {});
    });

    it('per-IP caps of the sign-up forms (waitlist 5, keys 3, submit 5): exactly the cap is admitted, every 2xx is stored', async () => {
      const t = await make();
      const ip = freshIp();
      const fire = (url: string, body: (i: number) => object) =>
        Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            t.app.inject({ method: 'POST', url, payload: body(i), remoteAddress: ip }),
          ),
        );
      const [wl, keys, subs] = await Promise.all([
        fire('/api/waitlist', (i) => ({ email: `wl${i}@example.com` })),
        fire('/api/keys', (i) => ({ email: `k${i}@example.com` })),
        fire('/api/submit', () => SUBMISSION),
      ]);
      assert.equal(
        count(wl, (r) => r.statusCode !== 429),
        5,
        wl.map((r) => r.statusCode).join(' '),
      );
      assert.equal(
        count(keys, (r) => r.statusCode !== 429),
        3,
        keys.map((r) => r.statusCode).join(' '),
      );
      assert.equal(
        count(subs, (r) => r.statusCode !== 429),
        5,
        subs.map((r) => r.statusCode).join(' '),
      );
      const ok = (rs: typeof wl) => rs.filter((r) => r.statusCode === 200 || r.statusCode === 201);
      if (opts.configured) {
        assert.equal(ok(wl).length, 5);
        assert.equal(ok(keys).length, 3);
        assert.equal((await t.store.listWaitlist()).length, 5);
        assert.equal((await t.store.listKeys()).length, 3);
      }
      assert.equal(ok(subs).length, 5);
      const ids = ok(subs).map((r) => r.json().id as number);
      assert.equal(new Set(ids).size, 5, `distinct ids: ${ids.join(' ')}`);
    });

    it('the score cap (100 per IP per hour, POST /api/score and /api/honesty together)', async () => {
      const t = await make();
      const ip = freshIp();
      const rs = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: i % 2 ? '/api/honesty' : '/api/score',
            payload: SCORE,
            remoteAddress: ip,
          }),
        ),
      );
      assert.equal(
        count(rs, (r) => r.statusCode === 200),
        100,
      );
      assert.equal(
        count(rs, (r) => r.statusCode === 429),
        20,
      );
    });

    it('simultaneous submissions at one instant get distinct ids, and every one is stored', async () => {
      const t = await make();
      const rs = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/submit',
            payload: { ...SUBMISSION, model_name: `Model ${i}` },
            remoteAddress: freshIp(),
          }),
        ),
      );
      assert.ok(rs.every((r) => r.statusCode === 200));
      const ids = rs.map((r) => r.json().id as number);
      assert.equal(new Set(ids).size, 20);
      const stored = await t.store.listSubmissions();
      for (const [i, id] of ids.entries())
        assert.equal(stored.find((s) => s.id === id)?.modelName, `Model ${i}`, `submission ${id} kept`);
    });

    it('the waitlist: of simultaneous sign-ups of one address exactly one is new; positions stay gapless', async () => {
      const t = await make();
      const store = t.store;
      if (!opts.configured) {
        // SVC_STORE_URL=memory answers 500 on the route; the store method itself keeps the promise
        const outs = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            store.joinWaitlist({ email: i % 2 ? 'Same@Example.com' : 'same@example.com', createdAt: '' }),
          ),
        );
        assert.equal(
          count(outs, (o) => o.created),
          1,
        );
        assert.ok(outs.every((o) => o.position === 1));
        return;
      }
      const rs = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/waitlist',
            payload: { email: i % 2 ? 'Same@Example.com' : 'same@example.com' },
            remoteAddress: freshIp(),
          }),
        ),
      );
      assert.equal(
        count(rs, (r) => r.statusCode === 201),
        1,
        rs.map((r) => r.statusCode).join(' '),
      );
      assert.equal(
        count(rs, (r) => r.statusCode === 200),
        9,
      );
      assert.ok(rs.every((r) => r.json().position === 1));
      assert.equal(
        count(rs, (r) => r.json().email_sent !== undefined),
        1,
        'emails for the new sign-up only',
      );
      const others = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/waitlist',
            payload: { email: `other${i}@example.com` },
            remoteAddress: freshIp(),
          }),
        ),
      );
      assert.ok(others.every((r) => r.statusCode === 201));
      assert.deepEqual(
        others.map((r) => r.json().position as number).sort((a, b) => a - b),
        Array.from({ length: 10 }, (_, i) => i + 2),
      );
      const list = await store.listWaitlist();
      assert.equal(list.length, 11);
      for (const [i, r] of others.entries()) assert.equal(list[r.json().position - 1]!.email, `other${i}@example.com`);
    });

    it('SVC_MAIL_PER_RECIPIENT_DAY: simultaneous messages to one address send at most the cap', async () => {
      const store = makeStore();
      try {
        const sent: string[] = [];
        const mailer = capPerRecipient({ send: async (m: MailMessage) => (sent.push(m.to), true) }, store, {
          perDay: 5,
          exempt: 'admin@svc.test',
          now: () => NOW,
          log: { warn() {} },
        });
        const outs = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            mailer.send({ to: i % 2 ? 'Cap@Example.com' : ' cap@example.com', subject: 's', text: 't' }),
          ),
        );
        assert.equal(count(outs, Boolean), 5);
        assert.equal(sent.length, 5);
        const admin = await Promise.all(
          Array.from({ length: 8 }, () => mailer.send({ to: 'admin@svc.test', subject: 's', text: 't' })),
        );
        assert.ok(admin.every(Boolean), 'admin notices are not capped');
      } finally {
        if (store instanceof RedisStore) await store.destroyAll().catch(() => {});
        await store.close();
      }
    });

    if (!opts.configured) return; // keys need a configured store

    it('a key’s allowance: simultaneous keyed calls draw exactly what is left, the rest go to the free tier', async () => {
      const t = await make();
      const store = t.store;
      const k = await createApiKey(store, { email: 'allow@example.com' }, NOW);
      const call = () => keyed(t.app, k.apiKey, '/api/score', SCORE);
      assert.equal((await call()).statusCode, 200, 'the day’s first request (its refill) is behind us');
      await store.updateKey(k.record.id, { callsRemaining: 4 });
      const rs = await Promise.all(Array.from({ length: 10 }, call));
      assert.ok(rs.every((r) => r.statusCode === 200));
      assert.equal(
        count(rs, (r) => r.headers['svc-allowance'] === undefined),
        4,
        'drawn from the allowance',
      );
      assert.equal((await store.getKeyByHash(k.record.hash))!.callsRemaining, 0);
    });

    it('a key’s hourly window (max of the IP cap and its rate_limit): exactly the cap is admitted', async () => {
      const t = await make();
      const store = t.store;
      const k = await createApiKey(store, { email: 'window@example.com' }, NOW);
      const call = () => keyed(t.app, k.apiKey, '/api/score', SCORE);
      assert.equal((await call()).statusCode, 200, 'the day’s first request (its refill) is behind us');
      await store.updateKey(k.record.id, { rateLimit: 1, callsRemaining: 500 }); // window cap max(100, 1) = 100
      const rs = await Promise.all(Array.from({ length: 110 }, call));
      assert.equal(
        count(rs, (r) => r.statusCode === 200),
        99,
        'the cap less the warm-up call',
      );
      assert.equal(
        count(rs, (r) => r.statusCode === 429),
        11,
      );
      assert.equal((await store.getKeyByHash(k.record.hash))!.callsRemaining, 500 - 99);
    });

    it('SVC_COUNCIL_HOURLY_LIMIT per key: exactly the cap is admitted, and each admitted call draws one', async () => {
      const t = await make({ env: { SVC_COUNCIL_HOURLY_LIMIT: '3' } });
      const store = t.store;
      const k = await createApiKey(store, { email: 'council@example.com' }, NOW);
      const before = (await store.getKeyByHash(k.record.hash))!.callsRemaining;
      const rs = await Promise.all(
        Array.from({ length: 9 }, () =>
          keyed(t.app, k.apiKey, '/api/council', { question: 'Should I take the job in Berlin or stay in Lisbon?' }),
        ),
      );
      assert.equal(
        count(rs, (r) => r.statusCode === 200),
        3,
        rs.map((r) => r.statusCode).join(' '),
      );
      assert.equal(
        count(rs, (r) => r.statusCode === 429),
        6,
      );
      assert.equal((await store.getKeyByHash(k.record.hash))!.callsRemaining, before - 3);
    });

    it('an activation link works once under simultaneous clicks', async () => {
      const t = await make();
      const store = t.store;
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/keys',
        payload: { email: 'click@example.com', plan: 'pro' },
        remoteAddress: freshIp(),
      });
      assert.equal(r.statusCode, 201);
      const token = /token=([A-Za-z0-9_-]{43})/.exec(t.sent.at(-1)!.text)![1]!;
      const rs = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.app.inject({ method: 'GET', url: `/api/keys/verify?token=${token}`, remoteAddress: freshIp() }),
        ),
      );
      assert.equal(
        count(rs, (x) => x.statusCode === 200),
        1,
        rs.map((x) => x.statusCode).join(' '),
      );
      assert.equal(
        count(rs, (x) => x.statusCode === 404),
        7,
      );
      const rec = (await store.listKeys()).find((x) => x.email === 'click@example.com')!;
      assert.equal(rec.active, true);
    });

    it('a model council’s draw of several calls: simultaneous councils never strand calls drawn in part', async () => {
      const fake = await startFakeOpenAI(() => JSON.stringify({ pick: 'B', reason: 'Keep the savings.' }));
      try {
        const store = makeStore();
        const t = await make({
          store: slowed(store, ['consumeCall'], 20),
          env: { SVC_LLM_URL: fake.url, SVC_LLM_MODEL: 'fake-model' },
        });
        const k = await createApiKey(store, { email: 'llmcouncil@example.com' }, NOW);
        const call = (url: string, payload: object) => keyed(t.app, k.apiKey, url, payload);
        assert.equal(
          (await call('/api/score', SCORE)).statusCode,
          200,
          'the day’s first request (its refill) is behind us',
        );
        // each council takes 3 (36 model calls): the limiter's one, then 2 more; 7 left pays for two, and the third
        // (refused, as one at a time would be) costs only the limiter's call
        await store.updateKey(k.record.id, { callsRemaining: 7 });
        const question = { question: 'Should I put my emergency fund in Bitcoin or keep it in a savings account?' };
        const rs = await Promise.all(Array.from({ length: 3 }, () => call('/api/council', question)));
        assert.deepEqual(
          rs.map((r) => r.statusCode).sort(),
          [200, 200, 429],
          rs.map((r) => r.payload.slice(0, 200)).join('\n'),
        );
        assert.equal((await store.getKeyByHash(k.record.hash))!.callsRemaining, 0);
      } finally {
        await fake.close();
      }
    });

    it('the daily refill: the first request of a UTC day refills, and the day draws at most the allowance', async () => {
      // the instance that counts the day's first request is slow to write the refill (another instance, or a
      // remote store): the other requests of that moment go on meanwhile
      let now = NOW;
      const store = makeStore();
      const t = await make({ store: slowed(store, ['updateKey'], 60), now: () => now });
      const k = await createApiKey(store, { email: 'refill@example.com' }, now);
      // a small allowance, two calls of it left from yesterday
      await store.updateKey(k.record.id, { rateLimit: 5, callsRemaining: 2 });
      now += DAY_MS;
      const rs = await Promise.all(Array.from({ length: 10 }, () => keyed(t.app, k.apiKey, '/api/score', SCORE)));
      assert.ok(rs.every((r) => r.statusCode === 200));
      const drawn = count(rs, (r) => r.headers['svc-allowance'] === undefined);
      const left = (await store.getKeyByHash(k.record.hash))!.callsRemaining;
      assert.deepEqual({ drawn, left }, { drawn: 5, left: 0 }, 'the new day allows 5 calls, all drawn by the 10');
    });
  });
}

suite('memory', () => new MemoryStore(), { configured: false });
suite('SQLite', () => new SqliteStore(path.join(tmpDir('svc-limitrace-'), 'svc.db')), { configured: true });
suite('Redis', () => new RedisStore(redisTestUrl('limitrace')), { configured: true, skip: await redisSkip() });
