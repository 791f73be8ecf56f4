/**
 * Signed checkpoints of the audit log and the Ed25519 key that signs them.
 *
 * A checkpoint is JSON: {origin, tree_size, root_hash, timestamp, key_id, signature}. The signature is Ed25519
 * over the RFC 8785 canonical JSON of the other five fields. key_id is the first 16 hex characters of the
 * SHA-256 of the public key's SPKI DER encoding.
 *
 * Key policy: SVC_SIGNING_KEY (PKCS#8 PEM or base64 DER) when set. Otherwise a key is generated on first use
 * and kept in the store under `audit.signing_key` with setIfAbsent, so every instance sharing the store signs
 * with the same key. The private key is never logged or served; only the public key is published.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import canonicalize from 'canonicalize';
import type { LogStore } from '../store/types.ts';

export const CHECKPOINT_ORIGIN = 'svc audit log';
export const SIGNING_KEY_SETTING = 'audit.signing_key';

export interface CheckpointBody {
  origin: string;
  tree_size: number;
  /** Merkle tree head (RFC 9162) of the first tree_size leaves, 64 hex. */
  root_hash: string;
  timestamp: string;
  key_id: string;
}

export interface Checkpoint extends CheckpointBody {
  /** Base64 Ed25519 signature over canonicalize(CheckpointBody). */
  signature: string;
}

export interface PublicKeyInfo {
  algorithm: 'Ed25519';
  key_id: string;
  /** SPKI, PEM. */
  public_key_pem: string;
}

export class Signer {
  readonly publicKey: KeyObject;
  readonly keyId: string;

  constructor(private readonly privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== 'ed25519')
      throw new Error('the audit signing key must be an Ed25519 private key');
    this.publicKey = createPublicKey(privateKey);
    this.keyId = keyIdOf(this.publicKey);
  }

  sign(size: number, rootHash: string, timestamp: string): Checkpoint {
    const body: CheckpointBody = {
      origin: CHECKPOINT_ORIGIN,
      tree_size: size,
      root_hash: rootHash,
      timestamp,
      key_id: this.keyId,
    };
    const signature = sign(null, Buffer.from(canonicalize(body)!), this.privateKey).toString('base64');
    return { ...body, signature };
  }

  publicInfo(): PublicKeyInfo {
    return {
      algorithm: 'Ed25519',
      key_id: this.keyId,
      public_key_pem: this.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
  }
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/** Parse a private key given as PKCS#8 PEM or base64 DER. Throws without echoing the key. */
export function parsePrivateKey(text: string): KeyObject {
  try {
    const t = text.trim();
    return t.includes('-----BEGIN')
      ? createPrivateKey(t)
      : createPrivateKey({ key: Buffer.from(t, 'base64'), format: 'der', type: 'pkcs8' });
  } catch {
    throw new Error('the audit signing key is not a PKCS#8 private key (PEM or base64 DER)');
  }
}

/** Parse a public key given as SPKI PEM or base64 DER (or a published PublicKeyInfo JSON). */
export function parsePublicKey(text: string): KeyObject {
  let t = text.trim();
  if (t.startsWith('{')) t = String((JSON.parse(t) as { public_key_pem?: unknown }).public_key_pem ?? '');
  return t.includes('-----BEGIN')
    ? createPublicKey(t)
    : createPublicKey({ key: Buffer.from(t, 'base64'), format: 'der', type: 'spki' });
}

/** The configured key, or the one shared through the store (created on first run). */
export async function loadSigner(store: Pick<LogStore, 'setIfAbsent'>, configured?: string): Promise<Signer> {
  if (configured) return new Signer(parsePrivateKey(configured));
  const fresh = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
  const inForce = await store.setIfAbsent(SIGNING_KEY_SETTING, fresh);
  return new Signer(parsePrivateKey(inForce));
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Parse a checkpoint's JSON and check its shape; null when it is not one. */
export function parseCheckpoint(json: string | unknown): Checkpoint | null {
  let v: unknown = json;
  if (typeof json === 'string') {
    try {
      v = JSON.parse(json);
    } catch {
      return null;
    }
  }
  if (typeof v !== 'object' || v === null) return null;
  const c = v as Record<string, unknown>;
  if (
    typeof c.origin !== 'string' ||
    !Number.isSafeInteger(c.tree_size) ||
    (c.tree_size as number) < 0 ||
    typeof c.root_hash !== 'string' ||
    !HEX64.test(c.root_hash) ||
    typeof c.timestamp !== 'string' ||
    typeof c.key_id !== 'string' ||
    typeof c.signature !== 'string'
  ) {
    return null;
  }
  return {
    origin: c.origin,
    tree_size: c.tree_size as number,
    root_hash: c.root_hash,
    timestamp: c.timestamp,
    key_id: c.key_id,
    signature: c.signature,
  };
}

/** Is the checkpoint's signature valid under this public key? */
export function verifyCheckpoint(cp: Checkpoint, publicKey: KeyObject): boolean {
  const body: CheckpointBody = {
    origin: cp.origin,
    tree_size: cp.tree_size,
    root_hash: cp.root_hash,
    timestamp: cp.timestamp,
    key_id: cp.key_id,
  };
  try {
    return verify(null, Buffer.from(canonicalize(body)!), publicKey, Buffer.from(cp.signature, 'base64'));
  } catch {
    return false;
  }
}
