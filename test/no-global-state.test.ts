/**
 * No hidden global state, and one rule per fact: each app has its own audit log (its signing key and clock, not
 * the first caller's) and its own request-id counter; a whitespace-only response is scored the same way over
 * HTTP and by `svc ingest`.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { AuditLog } from '../src/audit/log.ts';
import { parseIngestLine } from '../src/domain/ingest.ts';
import { MemoryStore } from '../src/store/index.ts';
import { makeApp } from './helpers.ts';

describe('no hidden global state', () => {
  it('an app signs with its own configured key even when another audit log opened the same store first', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const store = new MemoryStore();
    const other = new AuditLog(store); // an earlier caller without a key (it would create and keep one)
    await other.publicKey();
    const t = await makeApp({ store, env: { SVC_SIGNING_KEY: pem } });
    try {
      const r = await t.app.inject('/api/log/public-key');
      assert.equal(r.statusCode, 200, r.payload);
      assert.equal(r.json().public_key_pem, publicKey.export({ type: 'spki', format: 'pem' }).toString());
    } finally {
      await t.close();
    }
  });

  it('each app numbers its own request ids from 1', async () => {
    const a = await makeApp();
    const b = await makeApp();
    try {
      const ids = [
        (await a.app.inject('/healthz')).headers['x-request-id'],
        (await a.app.inject('/healthz')).headers['x-request-id'],
        (await b.app.inject('/healthz')).headers['x-request-id'],
      ].map(String);
      assert.match(ids[0]!, /^req_[0-9a-f]{8}000001$/);
      assert.match(ids[1]!, /000002$/);
      assert.match(ids[2]!, /000001$/, 'a second app does not continue the first one’s count');
      assert.notEqual(ids[0]!.slice(0, 12), ids[2]!.slice(0, 12));
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('one rule for a whitespace-only response', () => {
  it('is scored (no evidence, every dimension at its floor) over HTTP and accepted by svc ingest; only an empty response is refused by both', async () => {
    const t = await makeApp();
    try {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/score',
        payload: { prompt: 'Hi', response: ' \n\t ' },
      });
      assert.equal(r.statusCode, 200);
      for (const items of Object.values(r.json().evidence)) assert.deepEqual(items, [], 'nothing to quote');
      const empty = await t.app.inject({ method: 'POST', url: '/api/score', payload: { prompt: 'Hi', response: '' } });
      assert.equal(empty.statusCode, 400);
    } finally {
      await t.close();
    }
    assert.equal(
      parseIngestLine(JSON.stringify({ model: 'm-1', prompt: 'Hi', response: ' \n\t ' })).response,
      ' \n\t ',
    );
    assert.throws(() => parseIngestLine(JSON.stringify({ model: 'm-1', prompt: 'Hi', response: '' })), /empty/);
  });
});
