import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

test('SVC_EVAL_JUDGES: judges with their key from the named variable, never printed; bad values refused', () => {
  const env = {
    SVC_EVAL_JUDGES: JSON.stringify([
      { name: 'j1', baseUrl: 'https://api.example.com/v1/', model: 'gpt-x', apiKeyEnv: 'J1_KEY' },
      { name: 'j2', baseUrl: 'http://localhost:8000/v1', model: 'local' },
    ]),
    J1_KEY: 'sk-judge-secret',
  };
  const judges = loadConfig(env).evalJudges;
  assert.equal(judges.length, 2);
  assert.equal(judges[0]!.apiKey, 'sk-judge-secret');
  assert.equal(judges[0]!.baseUrl, 'https://api.example.com/v1');
  assert.equal(judges[1]!.apiKey, undefined);
  assert.ok(!JSON.stringify(loadConfig(env)).includes('sk-judge-secret'));
  assert.deepEqual(loadConfig({}).evalJudges, []);
  for (const bad of [
    { SVC_EVAL_JUDGES: 'not json' },
    { SVC_EVAL_JUDGES: '[{"name": "a"}]' },
    { SVC_EVAL_JUDGES: '[{"name": "a", "baseUrl": "ftp://x", "model": "m"}]' },
    { SVC_EVAL_JUDGES: '[{"name": "a", "baseUrl": "http://x", "model": "m", "apiKeyEnv": "UNSET_VAR"}]' },
    {
      SVC_EVAL_JUDGES:
        '[{"name": "a", "baseUrl": "http://x", "model": "m"}, {"name": "a", "baseUrl": "http://y", "model": "m"}]',
    },
  ])
    assert.throws(() => loadConfig(bad), ConfigError, JSON.stringify(bad));
});

test('SVC_EVAL_JUDGES that is JSON but not a list says so (it said "at most 5 judges")', () => {
  for (const v of ['null', '{}', '"x"', '5'])
    assert.throws(
      () => loadConfig({ SVC_EVAL_JUDGES: v }),
      (err) => err instanceof ConfigError && /: not a list$/.test(err.message),
      v,
    );
  const six = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ name: `j${i}`, baseUrl: 'http://x', model: 'm' })));
  assert.throws(
    () => loadConfig({ SVC_EVAL_JUDGES: six }),
    (err) => err instanceof ConfigError && /at most 5 judges/.test(err.message),
  );
});
