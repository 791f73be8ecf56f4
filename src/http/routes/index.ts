/** Every route plugin, registered in one place. */
import type { App, Deps } from '../types.ts';
import { badgeRoutes } from './badge.ts';
import { docsRoutes } from './docs.ts';
import { healthRoutes } from './health.ts';
import { leaderboardRoutes } from './leaderboard.ts';
import { modelRoutes } from './model.ts';

export async function registerRoutes(app: App, deps: Deps): Promise<void> {
  await leaderboardRoutes(app, deps);
  await modelRoutes(app, deps);
  await badgeRoutes(app, deps);
  await healthRoutes(app, deps);
  await docsRoutes(app, deps);
}
