import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors.ts';
import { LIMITS } from '../../ratelimit/index.ts';
import { ErrorSchema } from '../schemas/core.ts';
import type { App, Deps } from '../types.ts';

const Hex64 = Type.String({ pattern: '^[a-f0-9]{64}$' });
const Size = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

export const CheckpointSchema = Type.Object(
  {
    origin: Type.String(),
    tree_size: Type.Integer(),
    root_hash: Hex64,
    timestamp: Type.String({ format: 'date-time' }),
    key_id: Type.String({ description: 'First 16 hex of SHA-256 of the public key (SPKI DER)' }),
    signature: Type.String({
      description: 'Base64 Ed25519 signature over the RFC 8785 canonical JSON of the other five fields',
    }),
  },
  { title: 'Checkpoint' },
);

const PublicKeySchema = Type.Object(
  {
    algorithm: Type.Literal('Ed25519'),
    key_id: Type.String(),
    public_key_pem: Type.String({ description: 'SPKI, PEM' }),
  },
  { title: 'LogPublicKey' },
);

const InclusionSchema = Type.Object(
  {
    report_hash: Hex64,
    leaf_hash: Type.String({ description: 'SHA-256(0x00 || report hash bytes)' }),
    leaf_index: Type.Integer(),
    tree_size: Type.Integer(),
    inclusion_path: Type.Array(Hex64, { description: 'RFC 9162 2.1.3 audit path, leaf to root' }),
    checkpoint: CheckpointSchema,
  },
  { title: 'InclusionProof' },
);

const ConsistencySchema = Type.Object(
  {
    from: Type.Integer(),
    to: Type.Integer(),
    consistency_path: Type.Array(Hex64, { description: 'RFC 9162 2.1.4 consistency proof' }),
    from_checkpoint: Type.Union([CheckpointSchema, Type.Null()]),
    to_checkpoint: Type.Union([CheckpointSchema, Type.Null()]),
  },
  { title: 'ConsistencyProof' },
);

const NO_STORE = 'no-store';
/** The four log endpoints count together against one per-IP hourly cap. */
const LIMITED = { rateLimit: 'log' } as const;
const LIMIT_NOTE = ` ${LIMITS.log} requests per hour per IP, shared by the /api/log endpoints.`;

export async function logRoutes(app: App, deps: Deps): Promise<void> {
  const { audit } = deps;

  app.get(
    '/api/log/checkpoint',
    {
      config: LIMITED,
      schema: {
        summary: 'Signed checkpoint of the audit log',
        description: `The latest signed checkpoint, or the one stored for ?size=. 404 when there is none.${LIMIT_NOTE}`,
        tags: ['audit'],
        querystring: Type.Object({ size: Type.Optional(Size) }),
        response: { 200: CheckpointSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema, 500: ErrorSchema },
      },
    },
    async (request, reply) => {
      const cp = await audit.checkpoint(request.query.size);
      if (!cp)
        throw new AppError(
          'not_found',
          request.query.size === undefined ? 'The audit log is empty' : `No checkpoint for size ${request.query.size}`,
        );
      reply.header('cache-control', request.query.size === undefined ? NO_STORE : 'public, max-age=3600');
      return cp;
    },
  );

  app.get(
    '/api/log/public-key',
    {
      config: LIMITED,
      schema: {
        summary: 'Public key that signs the checkpoints',
        description: `The Ed25519 public key (SPKI PEM) and its key_id.${LIMIT_NOTE}`,
        tags: ['audit'],
        response: { 200: PublicKeySchema, 429: ErrorSchema, 500: ErrorSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return audit.publicKey();
    },
  );

  app.get(
    '/api/log/inclusion',
    {
      config: LIMITED,
      schema: {
        summary: 'Inclusion proof of a report hash',
        description:
          'The RFC 9162 audit path of a report hash (the leaf data) under the latest checkpoint, or under the ' +
          'stored checkpoint of ?size=. 404 when the hash is not in the log (or not under that checkpoint).' +
          LIMIT_NOTE,
        tags: ['audit'],
        querystring: Type.Object(
          {
            hash: Type.String({ pattern: '^[a-fA-F0-9]{64}$', description: 'Report hash, 64 hex' }),
            size: Type.Optional(Size),
          },
          { required: ['hash'] },
        ),
        response: { 200: InclusionSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema, 500: ErrorSchema },
      },
    },
    async (request, reply) => {
      const proof = await audit.inclusion(request.query.hash.toLowerCase(), request.query.size);
      if (!proof) throw new AppError('not_found', 'The report hash is not in the audit log under that checkpoint');
      reply.header('cache-control', NO_STORE);
      return proof;
    },
  );

  app.get(
    '/api/log/consistency',
    {
      config: LIMITED,
      schema: {
        summary: 'Consistency proof between two log sizes',
        description:
          'Proof (RFC 9162 2.1.4) that the log of size from is a prefix of the log of size to (default: the latest ' +
          'checkpoint), with the stored checkpoints of both sizes when there are any. 400 when from > to; 404 when ' +
          `to is beyond the log.${LIMIT_NOTE}`,
        tags: ['audit'],
        querystring: Type.Object({ from: Size, to: Type.Optional(Size) }, { required: ['from'] }),
        response: { 200: ConsistencySchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema, 500: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      if (to !== undefined && from > to) throw new AppError('bad_request', 'from must not be greater than to');
      const proof = await audit.consistency(from, to);
      if (!proof) throw new AppError('not_found', 'The log is not that long');
      reply.header('cache-control', NO_STORE);
      return proof;
    },
  );
}
