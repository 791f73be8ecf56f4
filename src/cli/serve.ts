/** `svc serve`: start the HTTP service (settings come from the environment; see src/config.ts or README). */
import { main } from '../main.ts';
import { noArguments } from './store.ts';

export const USAGE =
  'usage: svc serve\n\nStarts the HTTP service. It takes no arguments: settings come from the environment, e.g.\n' +
  '  PORT=8080 HOST=0.0.0.0 SVC_STORE_URL=sqlite:data/svc.db svc serve\n(README, Configuration).\n';

export async function run(args: string[]): Promise<number | undefined> {
  if (args.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length > 0) return noArguments('serve', args[0]!, USAGE);
  const code = await main();
  // A failed start exits at once: a store client reconnecting or a timer must not keep a process that will never serve.
  if (code !== 0) process.exit(code);
}
