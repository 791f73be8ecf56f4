#!/usr/bin/env node
// The `svc` command. TypeScript sources run through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { cli } = await import('../src/cli/main.ts');
const code = await cli(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
