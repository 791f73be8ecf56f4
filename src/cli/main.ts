/**
 * `svc <verb>`: one entry point for the server and the operator tools. Each verb lives in its own module
 * and is loaded only when called, so `svc score` does not pay for Fastify and `svc serve` not for the CLI tools.
 */
import { ConfigError, PACKAGE_ROOT } from '../config.ts';
import { AppError } from '../errors.ts';
import { SERVICE_VERSION } from '../version.ts';

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
  keys: {
    about: 'list API keys (no secrets); activate, revoke one or set its call allowance',
    load: () => import('./keys.ts'),
  },
  worker: {
    about: 'run evaluation jobs from the store (beside or instead of svc serve)',
    load: () => import('./worker.ts'),
  },
  eval: {
    about: 'run the probe suite against your own OpenAI-compatible model and print its scores',
    load: () => import('./eval.ts'),
  },
  submissions: {
    about: 'list model submissions with their evaluation progress; approve, reject or retry one',
    load: () => import('./submissions.ts'),
  },
};

type Verb = { run(args: string[]): Promise<number | undefined>; USAGE?: string };

function overview(): string {
  const list = Object.entries(verbs)
    .map(([name, v]) => `  svc ${name.padEnd(12)} ${v.about}`)
    .join('\n');
  return (
    `usage: svc <command> [options]\n\n${list}\n\n` +
    '  svc help <command>  the options of one command (also: svc <command> --help)\n' +
    '  svc --version       the version\n\n' +
    'Relative paths in settings (SVC_STORE_URL=sqlite:…, SVC_DATASET) and their defaults resolve against the\n' +
    `package folder (${PACKAGE_ROOT}), wherever svc is run from; commands that open the store name it on stderr.\n`
  );
}

/** `svc <command> --help`, `-h` or `svc help <command>`: the command's usage on stdout, exit 0. */
async function help(name: string | undefined): Promise<number> {
  const entry = name ? verbs[name] : undefined;
  if (!entry) {
    if (name) {
      process.stderr.write(`svc: unknown command ${JSON.stringify(name)}\n\n${overview()}`);
      return 2;
    }
    process.stdout.write(overview());
    return 0;
  }
  const mod: Verb = await entry.load();
  if (mod.USAGE) {
    process.stdout.write(mod.USAGE);
    return 0;
  }
  return (await mod.run(['--help'])) ?? 0;
}

/** Run one `svc` command line (argv without node and the script); resolves to the exit code. */
export async function cli(argv: string[]): Promise<number | undefined> {
  const [verb, ...args] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h') return help(undefined);
  if (verb === 'help') return help(args[0] === 'help' ? undefined : args[0]);
  if (verb === '--version' || verb === '-v' || verb === 'version') {
    process.stdout.write(`svc ${SERVICE_VERSION}\n`);
    return 0;
  }
  const entry = verbs[verb];
  if (!entry) {
    process.stderr.write(`svc: unknown command ${JSON.stringify(verb)}\n\n${overview()}`);
    return 2;
  }
  const end = args.indexOf('--');
  const own = end === -1 ? args : args.slice(0, end);
  if (own.includes('--help') || own.includes('-h')) return help(verb);
  try {
    return await (await entry.load()).run(args);
  } catch (err) {
    const line = operatorProblem(err);
    if (line === null) throw err; // a bug: the stack trace is what is needed
    process.stderr.write(`svc ${verb}: ${line}\n`);
    return err instanceof ConfigError ? 2 : 1;
  }
}

/** Errors whose cause is outside svc: a setting, a file, the store, the model endpoint. */
const OPERATOR_ERRORS = new Set([
  'ConfigError',
  'DatasetError',
  'IngestError',
  'PublishError',
  'ProbeSuiteError',
  'EvalOptionsError',
  'AuditIntegrityError',
  'StartupError',
  'AddressRefusedError',
  'LlmError',
]);

/**
 * One line for a problem the operator can fix (a bad setting, a missing or unreadable file, a store that does not
 * answer), as `svc serve` does at start-up; null for anything else.
 */
function operatorProblem(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const first = err.message.split('\n')[0] ?? '';
  if (err instanceof ConfigError) return `configuration error: ${first}`;
  if (err instanceof AppError) return first;
  if (OPERATOR_ERRORS.has(err.constructor.name)) return first;
  const sys = err as NodeJS.ErrnoException;
  if (typeof sys.code === 'string' && typeof sys.syscall === 'string') return first; // ENOENT, EACCES, ENOSPC …
  return null;
}
