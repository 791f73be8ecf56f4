/** The OpenAPI document behind /docs: every operation has an example request (when it takes input) and response. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { EXAMPLES } from '../src/http/examples.ts';
import { makeApp, type TestApp } from './helpers.ts';

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(async () => t.close());

type Op = {
  parameters?: { name: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown; examples?: unknown }> }>;
};

describe('examples in /openapi.json', () => {
  it('every operation has an example response, and an example for each input it takes', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as { paths: Record<string, Record<string, Op>> };
    let n = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        n++;
        const name = `${method.toUpperCase()} ${path}`;
        const responses = Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}));
        assert.ok(
          responses.some((m) => m.example !== undefined || m.examples !== undefined),
          `${name}: no example response`,
        );
        if (op.requestBody)
          assert.ok(
            Object.values(op.requestBody.content).some((m) => m.example !== undefined),
            `${name}: no example request body`,
          );
        for (const p of op.parameters ?? []) {
          const given = { ...EXAMPLES[name]?.query, ...EXAMPLES[name]?.params };
          if (p.name in given) assert.deepEqual(p.example, given[p.name], `${name} ${p.name}`);
        }
      }
    }
    assert.equal(n, Object.keys(EXAMPLES).length, 'one table entry per operation');
  });

  it('the example request bodies pass the routes’ own validation', async () => {
    for (const [name, ex] of Object.entries(EXAMPLES)) {
      if (ex.body === undefined) continue;
      const [method, url] = name.split(' ') as ['POST', string];
      const res = await t.app.inject({ method, url, payload: ex.body as object, remoteAddress: '192.0.2.90' });
      assert.notEqual(res.statusCode, 400, `${name}: ${res.body}`);
    }
  });
});

describe('the examples in /openapi.json are valid by their own schemas', () => {
  it('every JSON response example and every parameter example passes its schema ("Try it out" sends them)', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as {
      paths: Record<
        string,
        Record<string, Op & { parameters?: { name: string; schema?: object; example?: unknown }[] }>
      >;
    };
    const ajv = new Ajv({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv) => Ajv)(ajv);
    const invalid: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        for (const [status, r] of Object.entries(op.responses)) {
          for (const [type, media] of Object.entries(
            (r.content ?? {}) as Record<string, { schema?: object; example?: unknown }>,
          )) {
            if (media.example === undefined || !media.schema) continue;
            if (/json/.test(type) && !ajv.validate(media.schema, media.example))
              invalid.push(`${name} ${status} ${type}: ${ajv.errorsText()}`);
            if (/html/.test(type) && typeof media.example !== 'string') invalid.push(`${name} ${status} ${type}`);
          }
        }
        for (const p of op.parameters ?? [])
          if (p.example !== undefined && p.schema && !ajv.validate(p.schema, p.example))
            invalid.push(`${name} parameter ${p.name}: ${ajv.errorsText()}`);
      }
    }
    assert.deepEqual(invalid, []);
  });
});

describe('/openapi.json declares the answers the service really gives', () => {
  type Doc = { paths: Record<string, Record<string, Op>> };
  const declared = (doc: Doc, method: string, path: string, status: number, contentType: string) => {
    const r = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
    const media = contentType.split(';')[0]!.trim();
    return r !== undefined && Object.hasOwn(r.content ?? {}, media);
  };
  const fill = (path: string) =>
    path.replace('{slug}', 'green-model').replace('{id}', 'a'.repeat(64)).replace('{token}', 'A'.repeat(32));

  it('a bad bearer key: every operation documents its 401 (docs/decisions.md: 401 on every endpoint)', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as Doc;
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const r = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: fill(path),
          headers: { authorization: `Bearer sk-svc-${'0'.repeat(32)}`, 'content-type': 'application/json' },
          ...(method === 'post' ? { payload: '{}' } : {}),
          remoteAddress: '192.0.2.91',
        });
        assert.equal(r.statusCode, 401, `${method} ${path}: ${r.body.slice(0, 100)}`);
        if (!declared(doc, method, path, 401, String(r.headers['content-type'])))
          missing.push(`${method.toUpperCase()} ${path} (${r.headers['content-type']})`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('an alternate-shape answer: its media type is declared with the Quickref schema', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as Doc;
    const missing: string[] = [];
    for (const [method, url, path] of [
      ['GET', '/api/leaderboard?format=quickref', '/api/leaderboard'],
      ['GET', '/api/model?slug=green-model&format=quickref', '/api/model'],
      ['GET', `/api/verify?hash=sha256:${'0'.repeat(64)}`, '/api/verify'],
    ] as const) {
      const r = await t.app.inject({ method, url, remoteAddress: '192.0.2.92' });
      assert.equal(r.statusCode, 200, url);
      const type = String(r.headers['content-type']);
      assert.match(type, /^application\/vnd\.svc\.quickref\+json/);
      if (!declared(doc, method, path, 200, type)) missing.push(`${method} ${path} 200 ${type}`);
    }
    for (const [path, status] of [
      ['/api/score', '200'],
      ['/api/keys', '201'],
      ['/api/waitlist', '200'],
      ['/api/waitlist', '201'],
      ['/api/submit', '200'],
    ] as const) {
      const media = doc.paths[path]!.post!.responses[status]?.content?.['application/vnd.svc.quickref+json'] as
        | { schema?: { title?: string } }
        | undefined;
      if (!media?.schema?.title?.startsWith('Quickref')) missing.push(`POST ${path} ${status}`);
    }
    assert.deepEqual(missing, []);
  });

  it('a JSON body that is too large or not JSON: every POST with a JSON body documents 413 and 415', async () => {
    const doc = (await t.app.inject('/openapi.json')).json() as Doc;
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const op = ops.post;
      if (!op?.requestBody?.content['application/json']) continue;
      const big = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/json' },
        payload: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`,
        remoteAddress: '192.0.2.93',
      });
      const plain = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
        remoteAddress: '192.0.2.94',
      });
      for (const [r, status] of [
        [big, 413],
        [plain, 415],
      ] as const) {
        if (r.statusCode === 401) continue; // the council refuses a keyless call first
        assert.equal(r.statusCode, status, `POST ${path}: ${r.body.slice(0, 100)}`);
        if (!declared(doc, 'POST', path, status, String(r.headers['content-type'])))
          missing.push(`POST ${path} ${status}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
