/** Every route plugin, registered in one place. */
import { registerAuth } from '../plugins/auth.ts';
import { registerRateLimit } from '../plugins/rate-limit.ts';
import { registerShapes } from '../quickref.ts';
import type { App, Deps } from '../types.ts';
import { badgeRoutes } from './badge.ts';
import { clientRoutes } from './client.ts';
import { councilRoutes } from './council.ts';
import { docsRoutes } from './docs.ts';
import { healthRoutes } from './health.ts';
import { honestyRoutes } from './honesty.ts';
import { keysRoutes } from './keys.ts';
import { leaderboardRoutes } from './leaderboard.ts';
import { logRoutes } from './log.ts';
import { modelRoutes } from './model.ts';
import { pagesPlugin } from './pages.ts';
import { reportRoutes } from './report.ts';
import { scoreRoutes } from './score.ts';
import { statusRoutes } from './status.ts';
import { submitRoutes } from './submit.ts';
import { verifyRoutes } from './verify.ts';
import { waitlistRoutes } from './waitlist.ts';

export async function registerRoutes(app: App, deps: Deps): Promise<void> {
  registerAuth(app, deps); // bearer keys: 401 for a bad one, request.apiKey for the limiter
  registerRateLimit(app, deps); // routes opt in with config.rateLimit
  registerShapes(app); // routes opt in with config.shapes: request.shape is 'core' or 'quickref'
  await leaderboardRoutes(app, deps);
  await modelRoutes(app, deps);
  await badgeRoutes(app, deps);
  await healthRoutes(app, deps);
  await docsRoutes(app, deps);
  await scoreRoutes(app, deps);
  await keysRoutes(app, deps);
  await waitlistRoutes(app, deps);
  await submitRoutes(app, deps);
  await statusRoutes(app, deps);
  await verifyRoutes(app, deps);
  await reportRoutes(app, deps);
  await logRoutes(app, deps);
  await honestyRoutes(app, deps);
  await clientRoutes(app, deps);
  await councilRoutes(app, deps);
  await app.register(async (scope) => pagesPlugin(scope as App, deps)); // HTML pages: own form parser and HTML errors
}
