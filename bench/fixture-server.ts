/**
 * A server for the HTTP benchmarks, in its own process so that autocannon does not share its CPU.
 * argv[2]: "app" (the real service over the bundled dataset and a memory store) or "bare" (a plain Fastify
 * route that returns the bytes given on stdin). Prints the listening URL on stdout.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatasetSource } from '../src/domain/dataset.ts';
import { createMailer } from '../src/domain/email.ts';
import { createStore } from '../src/store/index.ts';
import Fastify from 'fastify';

const mode = process.argv[2];
const silent = { info() {}, error() {}, warn() {}, debug() {} };

if (mode === 'bare') {
  const bodies = JSON.parse(await new Response(process.stdin as unknown as ReadableStream).text()) as Record<string, { type: string; body: string }>;
  const app = Fastify();
  app.get('/bare/:name', async (req, reply) => {
    const b = bodies[(req.params as { name: string }).name]!;
    return reply.type(b.type).send(b.body);
  });
  process.stdout.write(`${await app.listen({ port: 0, host: '127.0.0.1' })}\n`);
} else {
  const env = { SVC_STORE_URL: process.env.SVC_STORE_URL ?? 'memory', LOG_LEVEL: 'silent', ...(process.env.BENCH_ENV ? JSON.parse(process.env.BENCH_ENV) : {}) };
  const config = loadConfig(env);
  const store = createStore(config.store);
  const app = await buildApp({
    config,
    store,
    mailer: createMailer(config.email, silent as never),
    dataset: openDatasetSource(config.datasetPath, silent, { watch: false }),
    logger: false,
  });
  process.stdout.write(`${await app.listen({ port: 0, host: '127.0.0.1' })}\n`);
}
