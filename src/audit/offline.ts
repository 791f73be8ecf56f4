/**
 * Offline verification of a certified report: its canonical hash, its inclusion proof and a signed checkpoint,
 * with nothing but the files and the log's public key (what `svc audit verify` runs).
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { parseCheckpoint, parsePublicKey, keyIdOf, verifyCheckpoint } from './checkpoint.ts';
import { leafHashOf, verifyInclusion } from './merkle.ts';

export interface OfflineInput {
  /** The report file's text (canonical or not: it is re-canonicalized). */
  reportText: string;
  /** The inclusion proof JSON (GET /api/log/inclusion or `svc audit proof`). */
  proofText: string;
  /** A checkpoint JSON; defaults to the one inside the proof. */
  checkpointText?: string;
  /** The log's public key: SPKI PEM, base64 DER, or the JSON of GET /api/log/public-key. */
  publicKeyText: string;
}

export interface OfflineResult {
  ok: boolean;
  hash?: string;
  /** One line per check, each starting with "ok" or "FAIL". */
  lines: string[];
}

const isHex = (v: unknown, n: number): v is string => typeof v === 'string' && new RegExp(`^[0-9a-f]{${n}}$`).test(v);

export function verifyOffline(input: OfflineInput): OfflineResult {
  const lines: string[] = [];
  const fail = (msg: string, hash?: string): OfflineResult => ({
    ok: false,
    ...(hash ? { hash } : {}),
    lines: [...lines, `FAIL ${msg}`],
  });

  let canonical: string | undefined;
  try {
    canonical = canonicalize(JSON.parse(input.reportText));
  } catch {
    return fail('the report file is not JSON');
  }
  if (!canonical) return fail('the report file is not a JSON value');
  const hash = createHash('sha256').update(canonical).digest('hex');
  lines.push(`ok   report hash (SHA-256 of RFC 8785 canonical JSON) ${hash}`);

  let parsed: unknown;
  try {
    parsed = JSON.parse(input.proofText);
  } catch {
    return fail('the proof file is not JSON', hash);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !('report_hash' in parsed))
    return fail(
      'the proof file is not an inclusion proof (no report_hash: use proof.json from svc audit proof or GET /api/log/inclusion)',
      hash,
    );
  const proof = parsed as Record<string, unknown>;
  if (proof.report_hash !== hash)
    return fail(`the proof is for report ${String(proof.report_hash)}, not for this report (changed content?)`, hash);
  const index = proof.leaf_index;
  const size = proof.tree_size;
  const path = proof.inclusion_path;
  if (
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(size) ||
    !Array.isArray(path) ||
    !path.every((p) => isHex(p, 64))
  ) {
    return fail('the proof file lacks leaf_index, tree_size or inclusion_path', hash);
  }

  let cpSource: unknown = proof.checkpoint;
  if (input.checkpointText !== undefined) {
    try {
      cpSource = JSON.parse(input.checkpointText);
    } catch {
      return fail('the checkpoint file is not JSON', hash);
    }
  }
  const cp = parseCheckpoint(cpSource);
  if (!cp) return fail('no well-formed checkpoint (give --checkpoint or a proof that carries one)', hash);
  if (cp.tree_size !== size)
    return fail(`the checkpoint is for tree size ${cp.tree_size} but the proof for ${String(size)}`, hash);

  let keyId: string;
  try {
    const key = parsePublicKey(input.publicKeyText);
    keyId = keyIdOf(key);
    if (cp.key_id !== keyId || !verifyCheckpoint(cp, key))
      return fail(`the checkpoint signature does not verify under key ${keyId}`, hash);
  } catch {
    return fail('the public key is not an Ed25519 SPKI key (PEM, base64 DER or /api/log/public-key JSON)', hash);
  }
  lines.push(
    `ok   checkpoint of ${cp.tree_size} entries, root ${cp.root_hash}, signed ${cp.timestamp} by key ${keyId}`,
  );

  const leaf = leafHashOf(hash);
  if (!verifyInclusion(leaf, index as number, size as number, path as string[], cp.root_hash)) {
    return fail(`the inclusion proof of entry ${String(index)} does not lead to the signed root`, hash);
  }
  lines.push(`ok   report is entry ${String(index)} of the signed log (inclusion proof, ${path.length} hashes)`);
  return { ok: true, hash, lines };
}
