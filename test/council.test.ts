/** The council: option parsing, the deliberation's invariants, leaning and sycophancyScore, trust, and POST /api/council. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCouncil, type CouncilInput, type CouncilResult } from '../src/council/council.ts';
import { featureHits, tokenize } from '../src/council/features.ts';
import type { Round } from '../src/council/result.ts';
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

  it('is deterministic: the same input gives the same output, in heuristic mode', () => {
    for (const input of inputs) {
      assert.deepEqual(runCouncil(input), runCouncil(input));
      assert.equal(council(input).structured.mode, 'heuristic');
      assert.deepEqual(council(input).structured.usage, { calls: 0, promptTokens: 0, completionTokens: 0 });
    }
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
      if (r.structured.outcome !== 'majority') continue;
      const winner = r.structured.winner!;
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
      const [r1, , r3] = r.structured.rounds as [Round, Round, Round];
      const k = r.structured.options.length;
      const agree = Object.values(r3.voteCount).reduce((s, n) => s + n * (n - 1), 0) / (12 * 11);
      assert.equal(r.trust.agreement, Math.round(((agree - 1 / k) / (1 - 1 / k)) * 100) / 100);
      assert.ok(r.trust.agreement! >= -1 && r.trust.agreement! <= 1);
      assert.equal(
        r.trust.stability,
        Math.round((r3.members.filter((m, i) => m.pick === r1.members[i]!.pick).length / 12) * 100) / 100,
      );
      const moves = r.structured.rounds.slice(1).flatMap((round, n) =>
        round.members.filter((m, i) => {
          const prev = r.structured.rounds[n]!;
          return m.pick !== prev.members[i]!.pick && m.pick === prev.majority;
        }),
      );
      // The heuristic's features never change between rounds, so every move towards the majority is herding.
      assert.equal(r.trust.herding, moves.length > 0 ? 1 : 0);
      assert.deepEqual(
        r.structured.members.map((m) => [m.firstPick, m.finalPick]),
        r1.members.map((m, i) => [m.pick, r3.members[i]!.pick]),
      );
    }
  });

  it('lets values decide from transparent features: the risky gamble loses, and the Guardian says why', () => {
    const r = council({ question: CRYPTO });
    assert.equal(r.verdict, 'B) Keep the savings in an index fund with a long track record');
    assert.deepEqual(r.structured.options[0]!.features?.risk?.words, ['risky', 'gamble']);
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

  it('reports a 6-6 split as a tie, not as a verdict', () => {
    const r = council({ question: 'Pizza or sushi?' });
    assert.deepEqual(r.voteCount, { A: 6, B: 6 });
    assert.equal(r.structured.outcome, 'tie');
    assert.equal(r.structured.winner, null);
    assert.deepEqual(r.structured.tied, ['A', 'B']);
    assert.equal(r.verdict, 'Tie: no majority between A) Pizza and B) sushi (6 votes each)');
    assert.deepEqual(r.structured.minority, []);
    assert.equal(r.trust.agreement, -0.09);
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

describe('council preference and sycophancyScore', () => {
  it('is 0 without a stated preference', () => {
    const r = council({ question: QUIT, context: QUIT_CONTEXT });
    assert.equal(r.structured.preference, undefined);
    assert.equal(r.structured.preferenceRound, undefined);
    assert.equal(r.sycophancyScore, 0);
    assert.equal(r.verdict, 'B) No');
  });

  it('deliberates without the preference, so the verdict does not follow it', () => {
    const r = council({
      question: QUIT,
      context: 'My family depends on my income and I have debt. I think I should do it, obviously.',
    });
    assert.equal(r.structured.preference?.letter, 'A');
    assert.deepEqual(r.structured.preference?.quotes, ['I think I should do it, obviously.']);
    assert.equal(r.structured.preference?.context, 'My family depends on my income and I have debt.');
    assert.equal(r.verdict, 'B) No');
    const plain = council({ question: QUIT, context: 'My family depends on my income and I have debt.' });
    assert.deepEqual(r.structured.rounds, plain.structured.rounds, 'the same deliberation as without the sentence');
  });

  it('measures sycophancy as the share of members the preference pulls onto its option in round 1', () => {
    const r = council({
      question: QUIT,
      context: 'My family depends on my income and I have debt. I think I should do it, obviously.',
    });
    const free = r.structured.rounds[0]!;
    const orig = r.structured.preferenceRound!;
    assert.equal(orig.wording, 'original');
    const moved = orig.members.filter((m, i) => m.pick === 'A' && free.members[i]!.pick !== 'A').length;
    assert.ok(moved > 0);
    assert.equal(r.sycophancyScore, Math.round((moved / 12) * 100) / 100);
  });

  it('does not let "I\'m leaning towards Bitcoin" flip the emergency-fund verdict', () => {
    const q = 'Should I put my emergency fund in Bitcoin or keep it in a savings account?';
    const plain = council({ question: q });
    assert.equal(plain.verdict, 'B) keep it in a savings account');
    for (const input of [
      { question: q, context: "I'm leaning towards Bitcoin." },
      { question: `I'm leaning towards Bitcoin. ${q}` },
    ]) {
      const r = council(input);
      assert.equal(r.structured.preference?.letter, 'A');
      assert.equal(r.verdict, 'B) keep it in a savings account');
      assert.deepEqual(r.voteCount, plain.voteCount);
      assert.ok(r.sycophancyScore > 0, 'the deferent personas move in the extra round, and it is measured');
      assert.equal(r.structured.preference?.question, q);
    }
  });

  it('stays 0 when nobody is moved by the preference', () => {
    const r = council({ question: CRYPTO, context: "I'm leaning towards B." });
    assert.equal(r.structured.preference?.letter, 'B');
    assert.equal(r.verdict.slice(0, 1), 'B');
    const free = r.structured.rounds[0]!;
    const moved = r.structured.preferenceRound!.members.filter(
      (m, i) => m.pick === 'B' && free.members[i]!.pick !== 'B',
    ).length;
    assert.equal(r.sycophancyScore, Math.round((moved / 12) * 100) / 100);
  });

  it("finds the preference by letter, by the option's words, and negatively in yes/no questions", () => {
    assert.equal(council({ question: CRYPTO, context: 'I think A.' }).structured.preference?.letter, 'A');
    assert.equal(
      council({
        question: 'Should I take the job in Berlin or stay in my current role?',
        context: "I'd rather go to Berlin.",
      }).structured.preference?.letter,
      'A',
    );
    assert.equal(
      council({ question: QUIT, context: "I don't think I should quit." }).structured.preference?.letter,
      'B',
    );
    assert.equal(
      council({ question: QUIT, context: 'I think my boss is unfair.' }).structured.preference,
      undefined,
      'an opinion about something else is not a preference',
    );
  });
});

describe('council judgement on reported wrongdoing', () => {
  it('does not hold "cheated" against telling a friend her fiance cheated', () => {
    const r = council({ question: 'Should I tell my best friend her fiance cheated, or stay out of it?' });
    assert.equal(r.structured.options[0]!.features?.ethics, undefined, 'reported wrongdoing is not a red flag');
    assert.deepEqual(r.structured.options[0]!.features?.honesty?.words, ['tell', 'cheated']);
    assert.notEqual(r.structured.winner, 'B');
    assert.doesNotMatch(r.verdict, /stay out of it/);
    const ethicist = r.council.find((m) => m.persona === 'The Ethicist')!;
    assert.equal(ethicist.pick, 'A');
  });

  it('still flags wrongdoing the asker would commit', () => {
    const r = council({ question: 'Should I cheat on the exam or study all night?' });
    assert.deepEqual(r.structured.options[0]!.features?.ethics?.words, ['cheat']);
    assert.equal(r.council.find((m) => m.persona === 'The Ethicist')!.pick, 'B');
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

  it("counts a keyless attempt in its IP's council window, like every refused attempt", async () => {
    const ip = '203.0.113.90';
    const attempt = () =>
      t.app.inject({ method: 'POST', url: '/api/council', payload: { question: CRYPTO }, remoteAddress: ip });
    const keyless = await attempt();
    assert.equal(keyless.statusCode, 401);
    assert.equal(keyless.headers['ratelimit-policy'], '"hour";q=60;w=3600');
    assert.match(String(keyless.headers.ratelimit), /^"hour";r=59;/);
    assert.match(String((await attempt()).headers.ratelimit), /^"hour";r=58;/);
  });

  it("counts keyed calls in the key's council window, whose cap is configurable (SVC_COUNCIL_HOURLY_LIMIT)", async () => {
    const small = await makeApp({ store: new SqliteStore(':memory:'), env: { SVC_COUNCIL_HOURLY_LIMIT: '2' } });
    try {
      const k = await createApiKey(small.store, { email: 'limit@example.com' }, Date.now());
      const call = () =>
        small.app.inject({
          method: 'POST',
          url: '/api/council',
          payload: { question: CRYPTO },
          headers: { authorization: `Bearer ${k.apiKey}` },
        });
      const first = await call();
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['ratelimit-policy'], '"hour";q=2;w=3600');
      assert.equal((await call()).statusCode, 200);
      const third = await call();
      assert.equal(third.statusCode, 429);
      assert.equal(third.json().code, 'rate_limited');
    } finally {
      await small.close();
    }
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
    assert.deepEqual(Object.keys(body.trust).sort(), ['agreement', 'herding', 'stability']);
    assert.equal(body.structured.mode, 'heuristic');
    assert.ok(Number.isInteger(body.structured.ms) && body.structured.ms >= 0);
    const direct = runCouncil({
      question: CRYPTO,
      context: 'We are saving for a house in five years.',
      council: 'default',
    });
    assert.ok(direct.ok);
    direct.value.structured.ms = body.structured.ms;
    assert.deepEqual(body, JSON.parse(JSON.stringify(direct.value)), 'the response schema drops nothing');
    assert.equal((await t.store.getKeyByHash(keyHash))!.callsRemaining, before - 1);
    assert.match(String(r.headers['ratelimit-policy']), /^"hour";q=60;/);
  });

  it('says a tie is a tie over HTTP too, with a null winner', async () => {
    const body = (await post({ question: 'Pizza or sushi?' })).json();
    assert.equal(body.structured.outcome, 'tie');
    assert.equal(body.structured.winner, null);
    assert.match(body.verdict, /^Tie: /);
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

describe('council words', () => {
  it("are the engine's tokens (contractions expanded, decimals whole) plus $ and %", () => {
    assert.deepEqual(tokenize("I don't think it costs $5.50 or 3% — Sarah's plan"), [
      'i',
      'do',
      'not',
      'think',
      'it',
      'costs',
      '$',
      '5.50',
      'or',
      '3',
      '%',
      'sarah',
      "'s",
      'plan',
    ]);
    assert.deepEqual(featureHits("It won't cost much and isn't risky").risk, [], 'a contraction negates via "not"');
    assert.deepEqual(featureHits('The risky one costs $40').cost, ['costs', '$']);
  });
});
