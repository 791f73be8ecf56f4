import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createChatClient, LlmError, retryAfterMs } from '../src/llm/client.ts';
import { fetch as undiciFetch } from 'undici';
import { AddressRefusedError, isPublicAddress, publicOnlyAgent } from '../src/llm/ssrf.ts';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.ts';

const servers: FakeOpenAI[] = [];
after(async () => {
  for (const s of servers) await s.close();
});
async function fake(...args: Parameters<typeof startFakeOpenAI>) {
  const s = await startFakeOpenAI(...args);
  servers.push(s);
  return s;
}
const user = (content: string) => [{ role: 'user' as const, content }];

async function rejects(p: Promise<unknown>, kind: string): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof LlmError, `expected LlmError, got ${String(err)}`);
    assert.equal(err.kind, kind, err.message);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('chat client', () => {
  test('sends the model and messages, returns the content, counts tokens; no key means no Authorization header', async () => {
    const s = await fake((req) => `echo: ${req.body.messages?.at(-1)?.content}`);
    const c = createChatClient({ baseUrl: s.url, model: 'm-1', allowPrivate: true });
    const r = await c.chat({ messages: user('hi'), temperature: 0, maxTokens: 50 });
    assert.equal(r.content, 'echo: hi');
    assert.ok(r.usage.promptTokens > 0 && r.usage.completionTokens > 0);
    assert.equal(s.requests[0]!.body.model, 'm-1');
    assert.equal(s.requests[0]!.body.max_tokens, 50);
    assert.equal(s.requests[0]!.body.temperature, 0);
    assert.equal(s.requests[0]!.headers.authorization, undefined);
    const r2 = await c.chat({ messages: user('again') });
    assert.deepEqual(c.usage(), {
      calls: 2,
      promptTokens: r.usage.promptTokens + r2.usage.promptTokens,
      completionTokens: r.usage.completionTokens + r2.usage.completionTokens,
    });
    assert.ok(c.usage().promptTokens > r.usage.promptTokens);
  });

  test('sends the key as a bearer token and never puts it in an error message', async () => {
    const key = 'sk-test-very-secret-123';
    const s = await fake((req) => ({
      status: 401,
      body: JSON.stringify({ error: { message: `bad key ${req.headers.authorization}` } }),
    }));
    const c = createChatClient({ baseUrl: s.url, model: 'm', apiKey: key, allowPrivate: true });
    const e = await rejects(c.chat({ messages: user('x') }), 'http');
    assert.equal(e.status, 401);
    assert.equal(s.requests[0]!.headers.authorization, `Bearer ${key}`);
    assert.ok(!e.message.includes(key), e.message);
    assert.ok(!String(e.stack).includes(key));
    assert.equal(s.requests.length, 1, '401 is not retried');
  });

  test('honours Retry-After on 429, then succeeds', async () => {
    const s = await fake((_r, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : 'ok'));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, retries: 2 });
    const r = await c.chat({ messages: user('x') });
    assert.equal(r.content, 'ok');
    assert.ok(r.ms >= 950, `waited ${r.ms} ms`);
    assert.equal(c.usage().calls, 2);
  });

  test('a Retry-After longer than the longest honoured fails at once instead of hanging', async () => {
    const s = await fake(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, retries: 3 });
    const e = await rejects(c.chat({ messages: user('x') }), 'http');
    assert.equal(e.status, 429);
    assert.equal(s.requests.length, 1);
  });

  test('retries 5xx with backoff; gives up after the retries with the status', async () => {
    const s = await fake(() => ({ status: 503, headers: { 'retry-after-ms': '10' } }));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, retries: 2 });
    const e = await rejects(c.chat({ messages: user('x') }), 'http');
    assert.equal(e.status, 503);
    assert.equal(s.requests.length, 3);
  });

  test('a 400 is not retried', async () => {
    const s = await fake(() => ({ status: 400 }));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true });
    await rejects(c.chat({ messages: user('x') }), 'http');
    assert.equal(s.requests.length, 1);
  });

  test('times out each attempt and reports kind timeout', async () => {
    const s = await fake(() => ({ content: 'late', delayMs: 5000 }));
    // 500 ms per attempt: with 150 ms, a loaded machine sometimes timed the retry out before its request
    // reached the fake server, which then saw one request
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, timeoutMs: 500, retries: 1 });
    const t0 = Date.now();
    await rejects(c.chat({ messages: user('x') }), 'timeout');
    const elapsed = Date.now() - t0;
    for (let i = 0; i < 50 && s.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(s.requests.length, 2);
    assert.ok(elapsed >= 900 && elapsed < 4000, `${elapsed} ms for two 500 ms attempts`);
  });

  test('a malformed body is retried and then reported as malformed', async () => {
    for (const body of ['not json at all {', JSON.stringify({ choices: [] }), JSON.stringify({ hello: 1 })]) {
      const s = await fake(() => ({ body }));
      const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, retries: 1 });
      await rejects(c.chat({ messages: user('x') }), 'malformed');
      assert.equal(s.requests.length, 2, body);
    }
  });

  test('a response over the size cap is refused as too_large (by Content-Length or by counting)', async () => {
    const s = await fake(() => 'x'.repeat(5000));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, maxResponseBytes: 2048 });
    await rejects(c.chat({ messages: user('x') }), 'too_large');
    assert.equal(s.requests.length, 1, 'not retried');
    const ok = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, maxResponseBytes: 8192 });
    assert.equal((await ok.chat({ messages: user('x') })).content.length, 5000);
  });

  test('JSON mode sends response_format and falls back when the server rejects it', async () => {
    const s = await fake((req) => (req.body.response_format ? { status: 400 } : '{"a":1}'));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true });
    assert.equal((await c.chat({ messages: user('x'), json: true })).content, '{"a":1}');
    assert.deepEqual(s.requests[0]!.body.response_format, { type: 'json_object' });
    assert.equal(s.requests[1]!.body.response_format, undefined);
    await c.chat({ messages: user('y'), json: true });
    assert.equal(s.requests.length, 3, 'remembered: no second rejected attempt');
    const s2 = await fake((req) => (req.body.response_format ? '{"ok":true}' : 'plain'));
    const c2 = createChatClient({ baseUrl: s2.url, model: 'm', allowPrivate: true });
    assert.equal((await c2.chat({ messages: user('x'), json: true })).content, '{"ok":true}');
  });

  test('the concurrency cap is shared by every client of one base URL', async () => {
    let inFlight = 0;
    let peak = 0;
    const s = await fake(async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 60));
      inFlight -= 1;
      return 'ok';
    });
    const a = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true, concurrency: 2 });
    const b = createChatClient({ baseUrl: `${s.url}/`, model: 'n', allowPrivate: true, concurrency: 5 });
    await Promise.all([...Array(4)].flatMap(() => [a.chat({ messages: user('x') }), b.chat({ messages: user('y') })]));
    assert.equal(s.requests.length, 8);
    assert.equal(peak, 2);
  });

  test("a caller's abort rejects with the signal's reason", async () => {
    const ac = new AbortController();
    // Aborted once the request is in flight (the model has it), not after a guess of wall-clock time.
    const s = await fake(() => (ac.abort(new Error('stop')), { content: 'late', delayMs: 3000 }));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true });
    await assert.rejects(c.chat({ messages: user('x'), signal: ac.signal }), /stop/);
  });

  test('retryAfterMs reads seconds, milliseconds and HTTP dates', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '150' })), 150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now), 5000);
    assert.equal(retryAfterMs(new Headers({})), undefined);
  });
});

describe('SSRF policy (allowPrivate false)', () => {
  test('isPublicAddress: public unicast only', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '[2001:4860:4860::8888]'])
      assert.equal(isPublicAddress(a), true, a);
    for (const a of [
      '127.0.0.1',
      '127.1.2.3',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      'not-an-address',
      '',
    ])
      assert.equal(isPublicAddress(a), false, a);
  });

  test('literal loopback and private addresses are refused before any request is sent', async () => {
    const s = await fake(() => 'should not be reached');
    const port = new URL(s.url).port;
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '10.0.0.1', '169.254.169.254']) {
      const c = createChatClient({ baseUrl: `http://${host}:${port}/v1`, model: 'm', retries: 0 });
      await rejects(c.chat({ messages: user('x') }), 'refused');
    }
    assert.equal(s.requests.length, 0);
  });

  test('a host name that resolves to loopback is refused at connect time', async () => {
    const s = await fake(() => 'should not be reached');
    const port = new URL(s.url).port;
    const c = createChatClient({ baseUrl: `http://localhost:${port}/v1`, model: 'm', retries: 2 });
    await rejects(c.chat({ messages: user('x') }), 'refused');
    assert.equal(s.requests.length, 0);
    assert.equal(c.usage().calls, 1, 'a refusal is not retried');
  });

  test('only http(s) base URLs, without credentials', () => {
    for (const u of ['ftp://example.com/v1', 'file:///etc/passwd', 'not a url', 'http://user:pw@example.com/v1'])
      assert.throws(
        () => createChatClient({ baseUrl: u, model: 'm' }),
        (e: unknown) => e instanceof LlmError && e.kind === 'refused',
      );
  });

  test('every redirect hop goes through the same check', async () => {
    // The first hop is a loopback fake server let in by a test policy; it redirects to the cloud metadata
    // address, which the same dispatcher refuses before connecting.
    const s = await fake(() => ({
      status: 307,
      headers: { location: 'http://169.254.169.254/latest/meta-data' },
      body: '',
    }));
    const dispatcher = publicOnlyAgent({ allow: (a) => a === '127.0.0.1' });
    const err = await undiciFetch(`${s.url}/chat/completions`, { method: 'POST', body: '{}', dispatcher }).then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    assert.ok(
      err instanceof TypeError && err.cause instanceof AddressRefusedError,
      String((err as Error).cause ?? err),
    );
    assert.equal(s.requests.length, 1);
    await dispatcher.close();
  });

  test('with allowPrivate the client follows redirects', async () => {
    const target = await fake(() => 'redirected');
    const s = await fake(() => ({ status: 307, headers: { location: `${target.url}/chat/completions` }, body: '' }));
    const c = createChatClient({ baseUrl: s.url, model: 'm', allowPrivate: true });
    assert.equal((await c.chat({ messages: user('x') })).content, 'redirected');
  });
});
