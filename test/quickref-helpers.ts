/** JSON schemas written from the second document (test/fixtures/quickref-*.json), compiled once for the contract tests. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const ajv = new Ajv({ allErrors: true, strict: false });
(addFormatsModule as unknown as (a: Ajv) => void)(ajv);

/** The JSON schema written from the second document for one variant (score, leaderboard, model, verify, keys, waitlist, submit). */
export function docSchema(name: string): ValidateFunction {
  const url = new URL(`./fixtures/quickref-${name}.json`, import.meta.url);
  return ajv.compile(JSON.parse(fs.readFileSync(url, 'utf8')));
}

export function assertMatches(validate: ValidateFunction, body: unknown): void {
  assert.ok(validate(body), `${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`);
}
