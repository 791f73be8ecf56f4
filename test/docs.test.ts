/** The OpenAPI document behind /docs: every operation has an example request (when it takes input) and response. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
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
