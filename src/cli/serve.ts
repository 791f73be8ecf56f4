/** `svc serve`: start the HTTP service (settings come from the environment; see src/config.ts or README). */
import { main } from '../main.ts';

export const USAGE =
  'usage: svc serve\n\nStarts the HTTP service. Settings come from the environment (see README, Configuration).\n';

export async function run(args: string[]): Promise<number | undefined> {
  if (args.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  const code = await main();
  // A failed start exits at once: a store client reconnecting or a timer must not keep a process that will never serve.
  if (code !== 0) process.exit(code);
}
