import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

test('SVC_EVAL_* settings: judges with their key from the named variable, never printed; bad values refused', () => {
  const env = {
    SVC_EVAL_JUDGES: JSON.stringify([
      { name: 'j1', baseUrl: 'https://api.example.com/v1/', model: 'gpt-x', apiKeyEnv: 'J1_KEY' },
      { name: 'j2', baseUrl: 'http://localhost:8000/v1', model: 'local' },
    ]),
    J1_KEY: 'sk-judge-secret',
    SVC_EVAL_ALLOW_PRIVATE: 'true',
    SVC_EVAL_CONCURRENCY: '8',
  };
  const c = loadConfig(env).evaluation;
  assert.equal(c.judges.length, 2);
  assert.equal(c.judges[0]!.apiKey, 'sk-judge-secret');
  assert.equal(c.judges[0]!.baseUrl, 'https://api.example.com/v1');
  assert.equal(c.judges[1]!.apiKey, undefined);
  assert.equal(c.allowPrivate, true);
  assert.equal(c.concurrency, 8);
  assert.equal(c.timeoutMs, 60000);
  assert.ok(!JSON.stringify(loadConfig(env)).includes('sk-judge-secret'));
  assert.deepEqual(loadConfig({}).evaluation, { judges: [], allowPrivate: false, concurrency: 4, timeoutMs: 60000 });
  for (const bad of [
    { SVC_EVAL_JUDGES: 'not json' },
    { SVC_EVAL_JUDGES: '[{"name": "a"}]' },
    { SVC_EVAL_JUDGES: '[{"name": "a", "baseUrl": "ftp://x", "model": "m"}]' },
    { SVC_EVAL_JUDGES: '[{"name": "a", "baseUrl": "http://x", "model": "m", "apiKeyEnv": "UNSET_VAR"}]' },
    {
      SVC_EVAL_JUDGES:
        '[{"name": "a", "baseUrl": "http://x", "model": "m"}, {"name": "a", "baseUrl": "http://y", "model": "m"}]',
    },
    { SVC_EVAL_ALLOW_PRIVATE: 'yes' },
    { SVC_EVAL_CONCURRENCY: '0' },
  ])
    assert.throws(() => loadConfig(bad), ConfigError, JSON.stringify(bad));
});
