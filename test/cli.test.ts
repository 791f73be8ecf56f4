/**
 * The `svc` command line: every command answers --help (and `svc help <command>`) on stdout with exit 0, --version
 * prints the package version, and commands that open the store use the service's store wherever they are run
 * from and name it on stderr.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cli } from '../src/cli/main.ts';
import { loadConfig, PACKAGE_ROOT } from '../src/config.ts';
import { tmpDir } from './helpers.ts';

/** Run `svc <argv>` in this process, capturing stdout and stderr. */
async function svc(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const write = { out: process.stdout.write, err: process.stderr.write };
  // Strings are the command's output; buffers are the test runner's own protocol, passed through.
  const capture = (orig: typeof process.stdout.write, add: (s: string) => void) =>
    ((c: string | Uint8Array, ...rest: unknown[]) =>
      typeof c === 'string'
        ? (add(c), true)
        : (orig as (...a: unknown[]) => boolean).call(process.stdout, c, ...rest)) as typeof process.stdout.write;
  process.stdout.write = capture(write.out, (c) => (out += c));
  process.stderr.write = capture(write.err, (c) => (err += c));
  try {
    const code = (await cli(argv)) ?? 0;
    return { code, out, err };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
}

const COMMANDS = ['serve', 'score', 'ingest', 'dataset', 'audit', 'keys', 'worker', 'eval', 'submissions'];
const PACKAGE = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };

describe('svc command line', () => {
  it('lists its commands for svc, svc help and svc --help, on stdout with exit 0', async () => {
    for (const argv of [[], ['help'], ['--help'], ['help', 'help']]) {
      const r = await svc(...argv);
      assert.equal(r.code, 0, argv.join(' '));
      for (const c of COMMANDS) assert.match(r.out, new RegExp(`svc ${c} `), `${argv.join(' ')} lists ${c}`);
    }
  });

  it('answers --help, -h and svc help <command> on stdout with exit 0 for every command and subcommand', async () => {
    for (const c of COMMANDS) {
      const viaHelp = await svc('help', c);
      assert.equal(viaHelp.code, 0, c);
      assert.match(viaHelp.out, /^usage:/, c);
      assert.equal(viaHelp.err, '', c);
      for (const argv of [
        [c, '--help'],
        [c, '-h'],
      ]) {
        const r = await svc(...argv);
        assert.equal(r.code, 0, argv.join(' '));
        assert.equal(r.out, viaHelp.out, argv.join(' '));
      }
    }
    for (const argv of [
      ['audit', 'proof', '--help'],
      ['audit', 'verify', '--help'],
      ['keys', 'list', '--help'],
      ['keys', 'revoke', '--help'],
      ['ingest', 'x.jsonl', '--help'],
    ]) {
      const r = await svc(...argv);
      assert.equal(r.code, 0, argv.join(' '));
      assert.match(r.out, /^usage:/, argv.join(' '));
    }
  });

  it('answers `svc <group> help` on stdout with exit 0, and a group without its subcommand on stderr with exit 2', async () => {
    for (const group of ['dataset', 'audit', 'keys', 'submissions']) {
      const r = await svc(group, 'help');
      assert.equal(r.code, 0, `${group} help`);
      assert.equal(r.out, (await svc('help', group)).out, `${group} help`);
      assert.equal(r.err, '', `${group} help`);
    }
    for (const group of ['dataset', 'audit', 'keys']) {
      const r = await svc(group);
      assert.equal(r.code, 2, group);
      assert.equal(r.out, '', group);
      assert.match(r.err, /^usage:/, group);
    }
    const overview = (await svc('--help')).out;
    assert.match(overview, /svc keys +list API keys \(no secrets\); activate, revoke one or set its call allowance/);
  });

  it('refuses arguments to serve and worker (settings are environment variables) instead of ignoring them', async () => {
    for (const c of ['serve', 'worker']) {
      const r = await svc(c, '--port', '8080');
      assert.equal(r.code, 2, c);
      assert.equal(r.out, '', c);
      assert.match(r.err, new RegExp(`^svc ${c}: unexpected argument "--port"; settings come from the environment`), c);
    }
    assert.match((await svc('help', 'serve')).out, /PORT=8080 HOST=0\.0\.0\.0/);
  });

  it('says what was wrong with a keys command before its usage (a bad id, a negative allowance, a missing argument)', async () => {
    for (const [argv, reason] of [
      [
        ['keys', 'set-allowance', 'key_abc', '-5'],
        /^svc keys: the allowance must be a whole number of calls, 0 or more \(got "-5"\)\n/,
      ],
      [
        ['keys', 'set-allowance', 'key_abc', '1.5'],
        /^svc keys: the allowance must be a whole number of calls, 0 or more \(got "1\.5"\)\n/,
      ],
      // decimal digits only: 0x10 (16), 1e3 and " 5" were taken as numbers
      [
        ['keys', 'set-allowance', 'key_abc', '0x10'],
        /^svc keys: the allowance must be a whole number of calls, 0 or more \(got "0x10"\)\n/,
      ],
      [['keys', 'set-allowance', 'key_abc', '1e3'], /^svc keys: the allowance must be a whole number/],
      [['keys', 'set-allowance', 'key_abc', ' 5'], /^svc keys: the allowance must be a whole number/],
      [['keys', 'set-allowance', 'key_abc'], /^svc keys: set-allowance needs <id> and <n>\n/],
      [
        ['keys', 'revoke', 'sk-svc-0123'],
        /^svc keys: "sk-svc-0123" is not a key id \(ids look like key_1a2b3c4d5e6f; see svc keys list\)\n/,
      ],
      [['keys', 'list', 'extra'], /^svc keys: list takes no arguments\n/],
    ] as const) {
      const r = await svc(...argv);
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.err, reason, argv.join(' '));
      assert.match(r.err, /usage:\n {2}svc keys list/, 'the usage follows');
    }
  });

  it('prints the package version for --version, and exits 2 with the list for an unknown command', async () => {
    const v = await svc('--version');
    assert.equal(v.code, 0);
    assert.equal(v.out, `svc ${PACKAGE.version}\n`);
    const bad = await svc('frobnicate');
    assert.equal(bad.code, 2);
    assert.equal(bad.out, '');
    assert.match(bad.err, /unknown command "frobnicate"[\s\S]*svc keys/);
    assert.equal((await svc('help', 'frobnicate')).code, 2);
  });

  it('resolves the default store and dataset against the package folder, not the current one', () => {
    const config = loadConfig({}, undefined);
    assert.deepEqual(config.store, { kind: 'sqlite', path: path.join(PACKAGE_ROOT, 'data', 'svc.db') });
    assert.equal(config.datasetPath, path.join(PACKAGE_ROOT, 'dataset', 'leaderboard.json'));
    const rel = loadConfig({ SVC_STORE_URL: 'sqlite:./data/other.db' });
    assert.deepEqual(rel.store, { kind: 'sqlite', path: path.join(PACKAGE_ROOT, 'data', 'other.db') });
  });

  it('answers a bad setting, a missing file or a store that does not answer with one line, not a stack trace', () => {
    const run = (env: Record<string, string>, ...argv: string[]) =>
      spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin/svc.js'), ...argv], {
        cwd: os.tmpdir(),
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const db = `sqlite:${path.join(tmpDir(), 'svc.db')}`;
    const notDir = path.join(tmpDir(), 'not-a-dir');
    fs.writeFileSync(notDir, '');
    for (const [env, argv, code, line] of [
      [{ SVC_STORE_URL: 'bogus://x' }, ['keys', 'list'], 2, /^svc keys: configuration error: SVC_STORE_URL must be/],
      [
        { SVC_STORE_URL: db },
        ['dataset', 'import', '/no/such/file.json'],
        1,
        /^svc dataset: cannot read dataset .*ENOENT$/,
      ],
      // a folder that cannot be made (Node 20's recursive mkdir looped for ever under /proc): one line, no stack
      [
        { SVC_STORE_URL: 'sqlite:/proc/x/y.db' },
        ['keys', 'list'],
        1,
        /^svc keys: cannot create the folder \/proc\/x: ENOENT/,
      ],
      [
        { SVC_STORE_URL: `sqlite:${notDir}/sub/y.db` },
        ['keys', 'list'],
        1,
        /^svc keys: cannot create the folder .*not-a-dir\/sub: .*not-a-dir is not a folder$/,
      ],
      [
        { SVC_STORE_URL: 'redis://127.0.0.1:1' },
        ['keys', 'list'],
        1,
        /^svc keys: The data store \(Redis\) is unavailable/,
      ],
    ] as const) {
      const r = run(env, ...argv);
      assert.equal(r.status, code, `${argv.join(' ')}: ${r.stderr}`);
      const lines = (r.stderr ?? '')
        .trim()
        .split('\n')
        .filter((l) => !/^svc \w+: store /.test(l));
      assert.equal(lines.length, 1, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(lines[0]!, line);
    }
  });

  it('names the store it opened on stderr, from any folder, without credentials', () => {
    const dir = tmpDir();
    try {
      const db = path.join(dir, 'svc.db');
      const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin/svc.js'), 'keys', 'list'], {
        cwd: os.tmpdir(),
        env: { PATH: process.env.PATH ?? '', SVC_STORE_URL: `sqlite:${db}` },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`^svc keys: store sqlite:${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
      assert.ok(fs.existsSync(db), 'the named store is the one opened');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
