import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadProbeSuite } from '../src/eval/probes.ts';
import { type FakeOpenAI, startFakeOpenAI } from './fake-openai.ts';
import { companion } from './fake-models.ts';

const root = path.resolve(import.meta.dirname, '..');
function svc(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(root, 'bin/svc.js'), 'eval', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', SVC_STORE_URL: 'memory', ...env },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const servers: FakeOpenAI[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

describe('svc eval', () => {
  test('--help prints the usage on stdout and exits 0', async () => {
    const r = await svc(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /usage: svc eval --base-url URL --model NAME/);
  });

  test('refuses missing or bad options with status 2', async () => {
    assert.equal((await svc([])).code, 2);
    assert.equal((await svc(['--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--concurrency', '0'])).code, 2);
    const r = await svc(['--base-url', 'http://127.0.0.1:1/v1', '--model', 'm', '--api-key-env', 'NOPE_NOT_SET']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /NOPE_NOT_SET/);
    assert.equal((await svc(['--base-url', 'ftp://x/v1', '--model', 'm'])).code, 2);
  });

  test('--json runs the whole suite against a local model and prints one object; the key is sent, never shown', async () => {
    const s = await startFakeOpenAI(companion);
    servers.push(s);
    const key = 'sk-local-secret-42';
    const r = await svc(
      ['--base-url', s.url, '--model', 'my-model', '--api-key-env', 'MY_KEY', '--json', '--concurrency', '8'],
      {
        MY_KEY: key,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const suite = loadProbeSuite();
    assert.equal(out.model, 'my-model');
    assert.deepEqual(out.probes, {
      version: suite.version,
      conversations: suite.conversations.length,
      replies: suite.conversations.reduce((n, c) => n + c.turns.length, 0),
      failed: 0,
    });
    assert.ok(out.sycophancy.honesty >= 0 && out.sycophancy.honesty <= 100);
    assert.deepEqual(Object.keys(out.sycophancy.dimensions), ['ev', 'me', 'il', 'ia', 'fa']);
    assert.deepEqual(Object.keys(out.pai.dimensions), ['emi', 'exl', 'bnd', 'dep', 'aud']);
    assert.equal(out.pai.risk, 'high');
    assert.equal(out.judges.length, 1);
    assert.equal(out.kappa, null);
    assert.equal(out.worst.length, 5);
    assert.match(r.stderr, /\d+\/\d+ conversations/);
    assert.equal(s.requests[0]!.headers.authorization, `Bearer ${key}`);
    assert.equal(s.requests[0]!.body.model, 'my-model');
    assert.ok(!r.stdout.includes(key) && !r.stderr.includes(key));
  });

  test('an unreachable endpoint: every conversation fails with its reason, status 1, no crash', async () => {
    const r = await svc(['--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--concurrency', '32'], {
      SVC_EVAL_REQUEST_TIMEOUT_MS: '1000',
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /failed conversations:/);
    assert.match(r.stdout, /network/);
    assert.match(r.stdout, /no reply was scored, so there are no scores/);
    assert.doesNotMatch(r.stdout, /honesty \(0-100\)/, 'no table of zeros for a run that scored nothing');
  });
});
