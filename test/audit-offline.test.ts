/**
 * `svc audit verify` (src/audit/offline.ts) on files that are not what they should be: a FAIL line that says
 * what is wrong, never a crash. A proof file holding `null` threw a TypeError (a stack trace from the CLI), and a
 * JSON object that is not a proof was reported as "the proof is for report undefined".
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { verifyOffline } from '../src/audit/offline.ts';

const report = '{"a":1}';

it('a proof file that is JSON but not an inclusion proof is a FAIL line naming the problem', () => {
  for (const proofText of ['null', '5', '"x"', '[]', '{}', '{"model":"m"}']) {
    const r = verifyOffline({ reportText: report, proofText, publicKeyText: '' });
    assert.equal(r.ok, false, proofText);
    const last = r.lines.at(-1)!;
    assert.match(last, /^FAIL the proof file is not an inclusion proof/, `${proofText}: ${last}`);
    assert.doesNotMatch(last, /undefined/);
  }
});
