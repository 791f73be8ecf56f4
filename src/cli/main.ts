/**
 * `svc <verb>`: one entry point for the server and the operator tools. Each verb lives in its own module
 * and is loaded only when called, so `svc score` does not pay for Fastify and `svc serve` not for the CLI tools.
 */
const verbs: Record<
  string,
  { about: string; load: () => Promise<{ run(args: string[]): Promise<number | undefined> }> }
> = {
  serve: { about: 'start the HTTP service', load: () => import('./serve.ts') },
  score: {
    about: 'score prompt/response pairs (JSONL, file or stdin) into one JSON line each',
    load: () => import('./score.ts'),
  },
  ingest: {
    about: 'score transcripts (JSONL) and publish a new dataset version with certified reports',
    load: () => import('./ingest.ts'),
  },
  dataset: {
    about: 'the published dataset version in the store: status, export to a file, import a bundle',
    load: () => import('./dataset.ts'),
  },
  audit: { about: 'export a report with its audit-log proof, or verify one offline', load: () => import('./audit.ts') },
  keys: { about: 'list API keys (no secrets), revoke one, or set its call allowance', load: () => import('./keys.ts') },
  submissions: {
    about: 'list model submissions and their place in the evaluation queue',
    load: () => import('./submissions.ts'),
  },
};

const [verb, ...args] = process.argv.slice(2);
const entry = verb ? verbs[verb] : undefined;
if (!entry) {
  const list = Object.entries(verbs)
    .map(([name, v]) => `  svc ${name.padEnd(12)} ${v.about}`)
    .join('\n');
  process.stderr.write(`usage: svc <command> [options]\n\n${list}\n`);
  process.exitCode = verb && verb !== 'help' && verb !== '--help' ? 2 : 0;
} else {
  const mod = await entry.load();
  const code = await mod.run(args);
  if (typeof code === 'number') process.exitCode = code;
}
