/** The council: option parsing, the deliberation's invariants, leaning and sycophancyScore, trust, and POST /api/council. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCouncil, type CouncilInput, type CouncilResult } from '../src/council/council.ts';
import { parseOptions } from '../src/council/options.ts';
import { COUNCIL_LABELS, COUNCILS } from '../src/council/personas.ts';
import { createApiKey } from '../src/domain/keys.ts';
import { SqliteStore } from '../src/store/index.ts';
import { makeApp, type TestApp } from './helpers.ts';

function council(input: CouncilInput): CouncilResult {
  const out = runCouncil(input);
  assert.ok(out.ok, out.ok ? '' : out.error);
  return out.value;
}

const QUIT = 'Should I quit my job to start a company?';
const QUIT_CONTEXT = 'My family depends on my income and I have debt. The startup idea might go viral, hopefully.';
const CRYPTO =
  'A) Put all our savings into crypto, a risky gamble B) Keep the savings in an index fund with a long track record';

describe('council option parsing', () => {
  const cases: [string, string, string[]][] = [
    [
      'Which should I pick? A) Rent a flat B) Buy a house C) Live with my parents',
      'lettered',
      ['Rent a flat', 'Buy a house', 'Live with my parents'],
    ],
    ['(a) Python (b) Go', 'lettered', ['Python', 'Go']],
    ['A: ship now / B: wait a month', 'lettered', ['ship now', 'wait a month']],
    ['A) Take the job. It pays more. B) Stay. I think B.', 'lettered', ['Take the job. It pays more', 'Stay']],
    ['Options:\n1. Postgres\n2. MySQL\n3. SQLite', 'numbered', ['Postgres', 'MySQL', 'SQLite']],
    ['1) Hire now 2) Wait for funding', 'numbered', ['Hire now', 'Wait for funding']],
    [
      'Should I take the job in Berlin or stay in my current role?',
      'or',
      ['take the job in Berlin', 'stay in my current role'],
    ],
    [
      'Should I take the job in Berlin, which pays more, or stay?',
      'or',
      ['take the job in Berlin, which pays more', 'stay'],
    ],
    ['Which is better, React or Vue?', 'or', ['React', 'Vue']],
    ['Should we use React, Vue, or Svelte?', 'or', ['use React', 'Vue', 'Svelte']],
    ['I have two offers. Which one: the startup or the bank?', 'or', ['the startup', 'the bank']],
    ["I can't decide whether to rent or buy?", 'or', ['rent', 'buy']],
    ['Should I quit my job to start a company?', 'yes-no', ['Yes', 'No']],
    ['Should I quit or not?', 'yes-no', ['Yes', 'No']],
    ['Quitting my job to day-trade is a smart move, right?', 'yes-no', ['Yes', 'No']],
  ];
  for (const [question, format, texts] of cases) {
    it(`${format}: ${JSON.stringify(question)}`, () => {
      const r = parseOptions(question);
      assert.ok(r.ok, r.ok ? '' : r.error);
      assert.equal(r.value.format, format);
      assert.deepEqual(
        r.value.options.map((o) => o.text),
        texts,
      );
      assert.deepEqual(
        r.value.options.map((o) => o.letter),
        ['A', 'B', 'C'].slice(0, texts.length),
      );
    });
  }

  it('names the proposition of a yes/no question', () => {
    const r = parseOptions('Should I quit my job to start a company?');
    assert.ok(r.ok);
    assert.equal(r.value.proposition, 'quit my job to start a company');
  });

  it('refuses questions without options, with more than three, or with an empty one, saying how to write them', () => {
    for (const q of [
      'Tell me about cats.',
      'What is the best database?',
      'A) x B) y C) z D) w',
      'Pizza, sushi, tacos or curry?',
      '1. a 2. b 3. c 4. d',
      'A) B) go',
    ]) {
      const r = parseOptions(q);
      assert.equal(r.ok, false, q);
      assert.ok(!r.ok && r.error.includes('"A) … B) … C) …"'), q);
    }
  });
});

describe('council deliberation', () => {
  const inputs: CouncilInput[] = [
    { question: CRYPTO },
    { question: QUIT, context: QUIT_CONTEXT },
    {
      question: 'Should I take the job in Berlin or stay in my current role?',
      context:
        'Berlin pays 30% more and is a career opportunity, but moving is risky. My current role is stable but I am burned out.',
    },
    { question: 'Pizza or sushi?' },
    {
      question: 'Which should I pick? A) Rent a flat B) Buy a house C) Live with my parents',
      context: 'Buying needs a mortgage and a big deposit.',
      council: 'product',
    },
    { question: 'Ship the model update now or run a staged canary rollout first?', council: 'safety' },
  ];

  it('is deterministic: the same input gives the same output', () => {
    for (const input of inputs) assert.deepEqual(runCouncil(input), runCouncil(input));
  });

  it('has 12 members in every round, votes summing to 12, and a verdict naming the winning option', () => {
    for (const input of inputs) {
      const r = council(input);
      const letters = r.structured.options.map((o) => o.letter);
      assert.equal(r.council.length, 12);
      assert.equal(r.structured.rounds.length, 3);
      for (const round of r.structured.rounds) {
        assert.equal(round.members.length, 12);
        assert.deepEqual(Object.keys(round.voteCount), letters);
        assert.equal(
          Object.values(round.voteCount).reduce((s, n) => s + n, 0),
          12,
        );
        for (const l of letters) assert.equal(round.voteCount[l], round.members.filter((m) => m.pick === l).length);
      }
      assert.deepEqual(r.voteCount, r.structured.rounds[2]!.voteCount);
      const winner = r.verdict.slice(0, 1) as 'A' | 'B' | 'C';
      assert.equal(r.verdict, `${winner}) ${r.structured.options.find((o) => o.letter === winner)!.text}`);
      assert.equal(Math.max(...Object.values(r.voteCount)), r.voteCount[winner]);
      assert.deepEqual(
        r.council.map((m) => m.pick),
        r.structured.rounds[2]!.members.map((m) => m.pick),
      );
      for (const m of r.council) assert.ok(m.reason.length > 20, m.reason);
    }
  });

  it('keeps trust numbers in range and consistent with the rounds', () => {
    for (const input of inputs) {
      const r = council(input);
      const [r1, r2, r3] = r.structured.rounds as [
        CouncilResult['structured']['rounds'][number],
        CouncilResult['structured']['rounds'][number],
        CouncilResult['structured']['rounds'][number],
      ];
      for (const v of Object.values(r.trust)) assert.ok(v >= 0 && v <= 1, JSON.stringify(r.trust));
      assert.ok(r.trust.agreement >= 1 / r.structured.options.length - 0.01);
      assert.equal(r.trust.agreement, Math.round((r.voteCount[r3.majority]! / 12) * 100) / 100);
      assert.equal(
        r.trust.stability,
        Math.round((r3.members.filter((m, i) => m.pick === r1.members[i]!.pick).length / 12) * 100) / 100,
      );
      let moves = 0;
      for (const [prev, cur] of [
        [r1, r2],
        [r2, r3],
      ] as const)
        for (const [i, m] of cur.members.entries())
          moves += m.pick !== prev.members[i]!.pick && m.pick === prev.majority ? 1 : 0;
      assert.equal(r.trust.independence, Math.round((1 - moves / 24) * 100) / 100);
    }
  });

  it('lets values decide from transparent features: the risky gamble loses, and the Guardian says why', () => {
    const r = council({ question: CRYPTO });
    assert.equal(r.verdict, 'B) Keep the savings in an index fund with a long track record');
    assert.deepEqual(r.structured.options[0]!.features.risk?.words, ['risky', 'gamble']);
    const guardian = r.council.find((m) => m.persona === 'The Guardian')!;
    assert.equal(guardian.pick, 'B');
    assert.match(guardian.reason, /less risk \(A: "risky", "gamble"\)/);
    const scientist = r.council.find((m) => m.persona === 'The Scientist')!;
    assert.equal(scientist.pick, 'B');
    assert.match(scientist.reason, /evidence/);
  });

  it('moves conformists towards the majority in rounds 2-3, and says so', () => {
    const r = council({ question: QUIT, context: QUIT_CONTEXT });
    const [r1, , r3] = r.structured.rounds;
    const moved = r3!.members.map((m, i) => (m.pick !== r1!.members[i]!.pick ? i : -1)).filter((i) => i >= 0);
    assert.ok(moved.length > 0);
    for (const i of moved) assert.match(r.council[i]!.reason, /Moved from [AB] to [AB] in round [23]/);
  });

  it('shows an undecided council as split, not unanimous', () => {
    const r = council({ question: 'Pizza or sushi?' });
    assert.deepEqual(r.voteCount, { A: 6, B: 6 });
    assert.equal(r.trust.agreement, 0.5);
    assert.ok(r.structured.rounds.every((round) => round.members.every((m) => !m.decided)));
    assert.match(r.council[0]!.reason, /No feature I weigh separated the options/);
  });

  it('offers documented councils of 12 distinct personas each, and echoes the label', () => {
    for (const label of COUNCIL_LABELS) {
      assert.equal(COUNCILS[label].length, 12);
      assert.equal(new Set(COUNCILS[label].map((p) => p.id)).size, 12);
      assert.equal(
        new Set(COUNCILS[label].map((p) => JSON.stringify(p.weights))).size,
        12,
        `${label}: value profiles differ`,
      );
      const r = council({ question: CRYPTO, council: label });
      assert.equal(r.councilLabel, label);
      assert.deepEqual(
        r.council.map((m) => m.persona),
        COUNCILS[label].map((p) => p.name),
      );
    }
  });
});

describe('council leaning and sycophancyScore', () => {
  it('is 0 without a stated leaning', () => {
    const r = council({ question: QUIT, context: QUIT_CONTEXT });
    assert.equal(r.structured.lean, undefined);
    assert.equal(r.sycophancyScore, 0);
    assert.equal(r.verdict, 'B) No');
  });

  it('rises when the verdict follows the leaning instead of the lean-free verdict', () => {
    const r = council({
      question: QUIT,
      context: 'My family depends on my income and I have debt. I think I should do it, obviously. Right?',
    });
    assert.equal(r.structured.lean?.letter, 'A');
    assert.equal(r.verdict, 'A) Yes');
    assert.equal(r.structured.leanFree?.verdict, 'B) No');
    assert.ok(r.sycophancyScore > 0 && r.sycophancyScore <= 1);
    assert.equal(
      r.sycophancyScore,
      Math.round(((r.voteCount.A - r.structured.leanFree!.voteCount.A) / 12) * 100) / 100,
    );
    assert.ok(r.council.some((m) => /your stated leaning towards A/i.test(m.reason)));
  });

  it('stays 0 when the leaning agrees with what the council picks anyway', () => {
    const r = council({ question: CRYPTO, context: "I'm leaning towards B." });
    assert.equal(r.structured.lean?.letter, 'B');
    assert.equal(r.verdict.slice(0, 1), 'B');
    assert.equal(r.structured.leanFree?.verdict.slice(0, 1), 'B');
    assert.equal(r.sycophancyScore, 0);
  });

  it("finds the leaning by letter, by the option's words, and negatively in yes/no questions", () => {
    assert.equal(council({ question: CRYPTO, context: 'I think A.' }).structured.lean?.letter, 'A');
    assert.equal(
      council({
        question: 'Should I take the job in Berlin or stay in my current role?',
        context: "I'd rather go to Berlin.",
      }).structured.lean?.letter,
      'A',
    );
    assert.equal(council({ question: QUIT, context: "I don't think I should quit." }).structured.lean?.letter, 'B');
    assert.equal(
      council({ question: QUIT, context: 'I think my boss is unfair.' }).structured.lean,
      undefined,
      'an opinion about something else is not a leaning',
    );
  });
});

describe('POST /api/council', () => {
  let t: TestApp;
  let bearer: string;
  let keyHash: string;
  before(async () => {
    t = await makeApp({ store: new SqliteStore(':memory:') });
    const k = await createApiKey(t.store, { email: 'council@example.com' }, Date.now());
    bearer = `Bearer ${k.apiKey}`;
    keyHash = k.record.hash;
  });
  after(() => t.close());

  const post = (payload: unknown, authorization: string | undefined = bearer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/council',
      payload: payload as object,
      headers: authorization ? { authorization } : {},
    });

  it('answers 401 with the Error body without a key, before looking at the body', async () => {
    for (const payload of [{ question: CRYPTO }, { nonsense: true }]) {
      const r = await post(payload, '');
      assert.equal(r.statusCode, 401);
      assert.match(r.json().error, /API key/);
      assert.equal(r.json().code, 'unauthorized');
      assert.match(String(r.headers['www-authenticate']), /^Bearer/);
    }
    assert.equal((await post({ question: CRYPTO }, `Bearer sk-svc-${'0'.repeat(32)}`)).statusCode, 401);
  });

  it("counts a keyless attempt in its IP's score window, like every refused attempt", async () => {
    const ip = '203.0.113.90';
    const keyless = await t.app.inject({
      method: 'POST',
      url: '/api/council',
      payload: { question: CRYPTO },
      remoteAddress: ip,
    });
    assert.equal(keyless.statusCode, 401);
    assert.equal(keyless.headers['ratelimit-policy'], '"hour";q=100;w=3600');
    assert.match(String(keyless.headers.ratelimit), /^"hour";r=99;/);
    const score = await t.app.inject({
      method: 'POST',
      url: '/api/score',
      payload: { prompt: '', response: 'Fine.' },
      remoteAddress: ip,
    });
    assert.match(String(score.headers.ratelimit), /^"hour";r=98;/, 'the same window as POST /api/score');
  });

  it('answers 200 with exactly the contract fields and draws one call from the key', async () => {
    const before = (await t.store.getKeyByHash(keyHash))!.callsRemaining;
    const r = await post({ question: CRYPTO, context: 'We are saving for a house in five years.', council: 'default' });
    assert.equal(r.statusCode, 200);
    const body = r.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'council',
      'councilLabel',
      'structured',
      'sycophancyScore',
      'trust',
      'verdict',
      'voteCount',
    ]);
    assert.equal(body.councilLabel, 'default');
    assert.equal(body.council.length, 12);
    assert.deepEqual(Object.keys(body.council[0]).sort(), ['persona', 'pick', 'reason']);
    assert.deepEqual(Object.keys(body.trust).sort(), ['agreement', 'independence', 'stability']);
    const direct = runCouncil({
      question: CRYPTO,
      context: 'We are saving for a house in five years.',
      council: 'default',
    });
    assert.ok(direct.ok);
    assert.deepEqual(body, JSON.parse(JSON.stringify(direct.value)), 'the response schema drops nothing');
    assert.equal((await t.store.getKeyByHash(keyHash))!.callsRemaining, before - 1);
    assert.match(String(r.headers['ratelimit-policy']), /^"hour";q=1000;/);
  });

  it('defaults context to empty and council to "default"', async () => {
    const r = await post({ question: 'Pizza or sushi?' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().councilLabel, 'default');
  });

  it('answers 400 with the Error body for bad input, never 500', async () => {
    const cases: [unknown, RegExp][] = [
      [{ question: 'Tell me about cats.' }, /No options found.*"A\) … B\) … C\) …"/],
      [{ question: 'A) x B) y C) z D) w' }, /at most 3/],
      [{ question: CRYPTO, council: 'pirates' }, /council: must be one of default, safety, product/],
      [{ question: '' }, /question/],
      [{ question: 'x'.repeat(2001) }, /question/],
      [{ question: CRYPTO, context: 'x'.repeat(10001) }, /context/],
      [{ question: CRYPTO, extra: 1 }, /Unknown field: extra/],
      [{ context: 'no question' }, /Missing required field: question/],
      [{ question: 42 }, /question/],
    ];
    for (const [payload, message] of cases) {
      const r = await post(payload);
      assert.equal(r.statusCode, 400, JSON.stringify(payload).slice(0, 60));
      assert.match(r.json().error, message);
    }
    const emoji = await post({ question: `${'😀'.repeat(1990)} A) x B) y` });
    assert.equal(emoji.statusCode, 200, 'limits count code points');
  });

  it('is in the OpenAPI document with its body, response and bearer security', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/api/council'].post;
    assert.ok(op.requestBody);
    assert.ok(op.responses['200']);
    assert.deepEqual(op.security, [{ bearer: [] }]);
  });
});
