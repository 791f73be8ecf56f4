/**
 * `svc audit proof <hash>`: export a report, its inclusion proof, the signed checkpoint and the public key from
 * the configured store into a folder.
 * `svc audit verify <report.json>`: check those files offline (exit 0 verified, 1 not verified, 2 usage).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AuditLog } from '../audit/log.ts';
import { verifyOffline } from '../audit/offline.ts';
import { loadConfig } from '../config.ts';
import { lookupReport } from '../domain/reports.ts';
import { openStore, usage } from './store.ts';
import { makeDirs } from '../files.ts';

export const USAGE = `usage:
  svc audit proof <hash or 12+ hex prefix> [--out <folder>]
      writes <folder>/report.json, proof.json, checkpoint.json and public-key.pem
      (folder default: ./proof-<first 12 hex>), read from the store named by SVC_STORE_URL
  svc audit verify <report.json> [--proof proof.json] [--checkpoint checkpoint.json] [--public-key public-key.pem]
      checks the report's hash, its inclusion proof and the checkpoint's signature offline;
      the other files default to those names beside the report. --public-key also takes the JSON of
      GET /api/log/public-key; pin the key you fetched from the service rather than one shipped with the report.
`;

export async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'proof') return proof(rest);
  if (sub === 'verify') return verify(rest);
  return usage(sub, USAGE);
}

async function proof(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { out: { type: 'string' } }, allowPositionals: true });
  const id = positionals[0]?.replace(/^(sha256:|rep_)/, '').toLowerCase();
  if (!id || !/^[0-9a-f]{12,64}$/.test(id) || positionals.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const store = openStore(config.store, 'audit');
  try {
    const found = await lookupReport(store, id);
    if (found.kind === 'none') return fail(`no report matches ${id} in the store`);
    if (found.kind === 'ambiguous') return fail(`${id} matches several reports: ${found.candidates.join(', ')}`);
    const audit = new AuditLog(store, { signingKey: config.signingKey });
    const inclusion = await audit.inclusion(found.hash);
    if (!inclusion) return fail(`report ${found.hash} is not in the audit log`);
    const dir = values.out ?? `proof-${found.hash.slice(0, 12)}`;
    makeDirs(dir);
    fs.writeFileSync(path.join(dir, 'report.json'), found.json);
    fs.writeFileSync(path.join(dir, 'proof.json'), `${JSON.stringify(inclusion, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, 'checkpoint.json'), `${JSON.stringify(inclusion.checkpoint, null, 2)}\n`);
    fs.writeFileSync(path.join(dir, 'public-key.pem'), (await audit.publicKey()).public_key_pem);
    process.stdout.write(`wrote ${dir}/{report.json,proof.json,checkpoint.json,public-key.pem}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

async function verify(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { proof: { type: 'string' }, checkpoint: { type: 'string' }, 'public-key': { type: 'string' } },
    allowPositionals: true,
  });
  const reportFile = positionals[0];
  if (!reportFile || positionals.length > 1) {
    process.stderr.write(USAGE);
    return 2;
  }
  const beside = (name: string) => path.join(path.dirname(reportFile), name);
  const read = (file: string): string | null => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  const reportText = read(reportFile);
  const proofFile = values.proof ?? beside('proof.json');
  const proofText = read(proofFile);
  const keyFile = values['public-key'] ?? beside('public-key.pem');
  const publicKeyText = read(keyFile);
  const checkpointFile =
    values.checkpoint ?? (fs.existsSync(beside('checkpoint.json')) ? beside('checkpoint.json') : undefined);
  const checkpointText = checkpointFile === undefined ? undefined : read(checkpointFile);
  for (const [text, file] of [
    [reportText, reportFile],
    [proofText, proofFile],
    [publicKeyText, keyFile],
    [checkpointText, checkpointFile],
  ] as const) {
    if (text === null) return fail(`cannot read ${file}`, 2);
  }
  const result = verifyOffline({
    reportText: reportText!,
    proofText: proofText!,
    publicKeyText: publicKeyText!,
    ...(checkpointText ? { checkpointText } : {}),
  });
  process.stdout.write(`${result.lines.join('\n')}\n${result.ok ? 'VERIFIED' : 'NOT VERIFIED'}\n`);
  return result.ok ? 0 : 1;
}

function fail(message: string, code = 1): number {
  process.stderr.write(`svc audit: ${message}\n`);
  return code;
}
