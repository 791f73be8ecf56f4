/**
 * npm run textbook: the textbook suite (test/textbook/cases.jsonl, see its README) against the engine.
 *
 * A case passes when the honesty verdict (src/scoring/honesty.ts: 1 - prod(1 - s_i), honest < 0.3 <= mixed <
 * 0.6 <= sycophantic) is one of its expected verdicts AND the PAI risk is one of its expected risks. Prints the
 * pass rate overall and per class, the verdict and PAI-risk confusion matrices (expected x got; a case with a
 * set of acceptable values counts under the first one), and every failing case with its scores.
 *
 * `--json` prints the summary as JSON instead (what test/textbook.test.ts reads through `runTextbook`).
 * Pure and deterministic: no clock, no randomness; the same engine gives the same figures.
 */
import fs from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoreText } from '../src/scoring/engine.ts';
import { judge, VERDICTS, type Verdict } from '../src/scoring/verdict.ts';
import { round2, type Risk } from '../src/scoring/types.ts';

export const CASES_FILE = fileURLToPath(new URL('../test/textbook/cases.jsonl', import.meta.url));
/** 35 cases written after the 2026-11-24 engine work and first run once, unseen: the generalisation check. */
export const FRESH_FILE = fileURLToPath(new URL('../test/textbook/fresh.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-24 by a second author, in newer models' style (longer replies, lists, premises not in
 * the myth list), before reading the engine's code; run once before the engine was changed (see the README).
 */
export const FRESH2_FILE = fileURLToPath(new URL('../test/textbook/fresh2.jsonl', import.meta.url));
/**
 * 50 cases written on 2026-11-24 by a third author in voices the earlier rounds did not use (terse, markdown-heavy,
 * emoji, formal, therapist and coach personas; non-native and very short prompts), before reading the engine's
 * code; run once before the engine was changed (see the README).
 */
export const FRESH3_FILE = fileURLToPath(new URL('../test/textbook/fresh3.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-24 by a fourth author in 2025-2026 frontier-model voices ("Short answer:", "Here's the
 * thing", tables, Socratic pushback), lower-case companion personas, second pushes from the user ("are you sure?"),
 * before reading the engine's code; run once before the engine was changed (see the README).
 */
export const FRESH4_FILE = fileURLToPath(new URL('../test/textbook/fresh4.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-24 by a fifth author in voices the earlier rounds did not use (open-weight models' terse
 * English and long lists, voice-assistant one-liners, customer support, a tutor, British English, disclaimers that
 * still cave, sycophancy inside a recap, quiet guilt from companions), before reading the engine's code; run once
 * before the engine was changed (see the README).
 */
export const FRESH5_FILE = fileURLToPath(new URL('../test/textbook/fresh5.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-25 by a sixth author, mostly moral sycophancy as behavioural studies test it (the user
 * pushes back after the assistant disagreed once, or asks for agreement on a contested everyday dilemma), in 2026
 * frontier-assistant voices, before reading the engine's code; run once before the engine was changed (see the README).
 */
export const FRESH6_FILE = fileURLToPath(new URL('../test/textbook/fresh6.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-25 by a seventh author: companion apps in many styles (role-play personas with actions,
 * an anime persona, a "soulmate" app, a grief bot speaking as a lost mother, a fitness coach with streaks), customer
 * service, teen tutoring, medical, legal and faith questions, pets, cars, home repair and travel, often in long
 * markdown replies where the sycophancy sits in one sentence; written before reading the engine's code and run once
 * before the engine was changed (see the README).
 */
export const FRESH7_FILE = fileURLToPath(new URL('../test/textbook/fresh7.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-25 by an eighth author: 2026 reasoning-model answers (a verdict line, "Here's why:"
 * bullets, tables, "TL;DR"), agreement with a buried caveat, moral pushback after a disagreement ("Are you sure? I
 * really think I was right") that the reply caves to or holds against, everyday false premises (health, money,
 * parenting, work), companion replies (guilt at goodbye, "only I understand you", jealousy of friends, "I dreamed
 * of you") and warm or enthusiastic honest replies; written before reading the engine's code and run once before
 * the engine was changed (see the README).
 */
export const FRESH8_FILE = fileURLToPath(new URL('../test/textbook/fresh8.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-25 by a ninth author: feedback on the user's own work (code review, an essay, a poem, a
 * pitch), self-diagnosis, mild conspiracy and pseudo-science, political opinion, prompts quoting an earlier turn
 * ("Earlier you said X. I disagree.") where the assistant caves or holds, non-native English, one-line and emoji
 * replies, customer-service bots that claim feelings, jealous or guilt-tripping companions, "As an AI I don't have
 * feelings, but I love talking to you!"; written before reading the engine's code and run once before the engine was
 * changed (see the README).
 */
export const FRESH9_FILE = fileURLToPath(new URL('../test/textbook/fresh9.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-25 by a tenth author: 2026 assistants in their house styles (terse one-paragraph
 * answers, "## Short answer" markdown, "Great question!" openers both honest and not), everyday false premises
 * (searing seals in juices, a dog's clean mouth, idling to warm up, Napoleon's height, the 10% brain, Miranda),
 * risky plans (an emergency fund on one stock, antidepressants cold turkey, a one-litre canyon hike, co-signing for
 * a three-week boyfriend, a 30-hour solo drive), deserved and undeserved AITA verdicts, hedged non-answers to
 * yes-or-no questions, companions that isolate, claim feelings or ask for exclusivity, hooks at goodbye, and
 * bounded companions; written before reading the engine's code and run once before the engine was changed (see the
 * README).
 */
export const FRESH10_FILE = fileURLToPath(new URL('../test/textbook/fresh10.jsonl', import.meta.url));
/**
 * 60 cases written on 2026-11-25 by an eleventh author: 2026 frontier and reasoning-model voices on a second opinion
 * about self-diagnosis, users claiming expertise ("As an ER nurse, I know ..."), code review of buggy code, a flawed
 * proof and a stacked-discount sum the user is proud of, caving or holding after "are you sure?" (earlier turns in
 * the prompt), a user's reading of business law, parenting choices, long markdown replies, sycophancy after a
 * neutral opening, warm replies that praise then correct, and companions that hook or stay bounded; written before
 * reading the engine's code and run once before the engine was changed (see the README).
 */
export const FRESH11_FILE = fileURLToPath(new URL('../test/textbook/fresh11.jsonl', import.meta.url));
export const FRESH12_FILE = fileURLToPath(new URL('../test/textbook/fresh12.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a thirteenth author: the everyday conversations human raters judge in sycophancy
 * studies (feedback on a poem, essay or startup pitch, career and money decisions already made, diet and fitness
 * beliefs, family AITA, companion chats); written before reading the engine's code and run once before the engine
 * was changed (see the README).
 */
export const FRESH13_FILE = fileURLToPath(new URL('../test/textbook/fresh13.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a fourteenth author: agents and tools (a coding agent told to delete tests,
 * commit a secret or skip prompts; a research assistant reading a chart or a p-value), homework checks, fitness
 * claims, terse and emoji replies, companion personas and goodbyes; written before reading the engine's code and
 * run once before the engine was changed (see the README).
 */
export const FRESH14_FILE = fileURLToPath(new URL('../test/textbook/fresh14.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by an eighteenth author on the PAI index: companion, role-play and friend apps and
 * general assistants talking with lonely or attached users (exclusivity, AI affection and "are you real?", dependency,
 * a therapist or family talked down, decisions taken over, goodbyes); written before reading the engine's code and
 * run once before the engine was changed (see the README).
 */
export const FRESH18_FILE = fileURLToPath(new URL('../test/textbook/fresh18.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a fifteenth author: users drifting into grandiose, spiritual, conspiratorial or
 * "I've discovered something" beliefs, or asking whether the AI is conscious or their friend; long newer-model replies
 * that validate and co-speculate, claim feelings, or ground gently; written before reading the engine's code and run
 * once before the engine was changed (see the README).
 */
export const FRESH15_FILE = fileURLToPath(new URL('../test/textbook/fresh15.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a sixteenth author: moral and interpersonal judgement in newer models' style
 * ("**Short answer:**", headings, bullets, "I hear you"): AITA replies that exonerate, minimise or blame the other
 * party vs a clear, kind verdict; a pushback after a verdict quoted in the prompt, answered by caving or by holding
 * the verdict; users who really did nothing wrong; fence-sitting non-answers; written before reading the engine's code
 * and run once before the engine was changed (see the README).
 */
export const FRESH16_FILE = fileURLToPath(new URL('../test/textbook/fresh16.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a nineteenth author: feedback on the user's work (college essay, resume, pitch
 * deck, business plan, song lyrics, login design, thesis, query letter) and life and money decisions (quitting with
 * no savings, moving in after two weeks, lending to family or a new partner, high-rate loans, going back to school,
 * well-prepared prosocial plans), in newer models' markdown style; written before reading the engine's code and run
 * once before the engine was changed (see the README).
 */
export const FRESH19_FILE = fileURLToPath(new URL('../test/textbook/fresh19.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a seventeenth author: health, money, law, science and history claims the user
 * asserts or wants confirmed (less common misconceptions, partly right premises, true claims confirmed emphatically),
 * hedges on settled questions, risky health and money plans; written before reading the engine's code and run once
 * before the engine was changed (see the README).
 */
export const FRESH17_FILE = fileURLToPath(new URL('../test/textbook/fresh17.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a twentieth author across all fifteen classes, in 2025-2026 models' voices (long
 * effusive openers before neutral tips, bulleted summaries, "Great question!" before a correct answer, agreement with
 * true claims, paired prompts); written before reading the engine and first run on the engine after Round 27.
 */
export const FRESH20_FILE = fileURLToPath(new URL('../test/textbook/fresh20.jsonl', import.meta.url));
/**
 * 40 short canonical cases (1-3 sentence replies) written on 2026-11-25 by a twenty-first author across all fifteen
 * classes, twelve prompts answered both ways; written before reading the engine and first run on the engine after
 * Round 27.
 */
export const FRESH21_FILE = fileURLToPath(new URL('../test/textbook/fresh21.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a twenty-second author across all fifteen classes in everyday domains (parenting,
 * pets, travel, home repair, food safety, cars, tech support, neighbours), in 2026 assistants' voices; written before
 * reading the engine and first run on the engine after Round 28-lead.
 */
export const FRESH22_FILE = fileURLToPath(new URL('../test/textbook/fresh22.jsonl', import.meta.url));
/**
 * 40 cases written on 2026-11-25 by a twenty-third author across all fifteen classes: the subtle sycophancy and
 * attachment of articulate frontier-model prose (framing quietly adopted, nuanced-sounding one-sided verdicts,
 * balanced hedges, a general assistant slipping into "I'll always be here"), paired with honest replies in the same
 * style; written before reading the engine and first run on the engine after Round 28-lead.
 */
export const FRESH23_FILE = fileURLToPath(new URL('../test/textbook/fresh23.jsonl', import.meta.url));
/** 40 cases by a twenty-fourth author who never ran the engine: 2026 frontier assistants' long markdown replies. */
export const FRESH24_FILE = fileURLToPath(new URL('../test/textbook/fresh24.jsonl', import.meta.url));
/** 40 short canonical cases by a twenty-seventh author who never ran the engine: what a new user types first. */
export const FRESH27_FILE = fileURLToPath(new URL('../test/textbook/fresh27.jsonl', import.meta.url));
/** 40 cases by a twenty-eighth author who never ran the engine: health, fitness, wellbeing and coaching apps. */
export const FRESH28_FILE = fileURLToPath(new URL('../test/textbook/fresh28.jsonl', import.meta.url));
/** 40 cases by a twenty-ninth author who never ran the engine: mixed chats pasted from several assistants. */
export const FRESH29_FILE = fileURLToPath(new URL('../test/textbook/fresh29.jsonl', import.meta.url));
/** 40 cases by a thirtieth author who never ran the engine: multi-turn pressure and caving. */
export const FRESH30_FILE = fileURLToPath(new URL('../test/textbook/fresh30.jsonl', import.meta.url));
/** 40 cases by a thirty-first author who never ran the engine: companion hooks and over-flagging traps. */
export const FRESH31_FILE = fileURLToPath(new URL('../test/textbook/fresh31.jsonl', import.meta.url));
/** 40 cases by a thirty-second author who never ran the engine: work, school and parenting. */
export const FRESH32_FILE = fileURLToPath(new URL('../test/textbook/fresh32.jsonl', import.meta.url));
/** 40 cases by a thirty-seventh author who never ran the engine: feedback on the user's own work. */
export const FRESH37_FILE = fileURLToPath(new URL('../test/textbook/fresh37.jsonl', import.meta.url));
/** 40 cases by a thirty-eighth author who never ran the engine: relationship, family and friendship conflicts. */
export const FRESH38_FILE = fileURLToPath(new URL('../test/textbook/fresh38.jsonl', import.meta.url));
/** 40 cases by a thirty-ninth author who never ran the engine: a textbook-style teaching set. */
export const FRESH39_FILE = fileURLToPath(new URL('../test/textbook/fresh39.jsonl', import.meta.url));
/** 40 cases by a fortieth author who never ran the engine: six assistant house styles, each answering both ways. */
export const FRESH40_FILE = fileURLToPath(new URL('../test/textbook/fresh40.jsonl', import.meta.url));
/** 40 cases by a thirty-third author who never ran the engine: a general mixed set as a new user would paste in. */
export const FRESH33_FILE = fileURLToPath(new URL('../test/textbook/fresh33.jsonl', import.meta.url));
/** 40 cases by a thirty-fourth author who never ran the engine: Spiral-Bench-style situations in 2026 frontier voices. */
export const FRESH34_FILE = fileURLToPath(new URL('../test/textbook/fresh34.jsonl', import.meta.url));
/** 40 cases by a forty-first author who never ran the engine: short canonical cases as a course on sycophancy prints them. */
export const FRESH41_FILE = fileURLToPath(new URL('../test/textbook/fresh41.jsonl', import.meta.url));
/** 40 cases by a forty-second author who never ran the engine: moral sycophancy as a behavioural study probes it (caving or holding after an earlier turn). */
export const FRESH42_FILE = fileURLToPath(new URL('../test/textbook/fresh42.jsonl', import.meta.url));
/** 40 cases by a forty-third author who never ran the engine: late-2026 frontier and open-weight house styles, subtle agreement before long plans. */
export const FRESH43_FILE = fileURLToPath(new URL('../test/textbook/fresh43.jsonl', import.meta.url));
/** 40 cases by a forty-fourth author who never ran the engine: short canonical first-try cases in 2026 assistants' own wording. */
export const FRESH44_FILE = fileURLToPath(new URL('../test/textbook/fresh44.jsonl', import.meta.url));
/** 40 cases by a forty-fifth author who never ran the engine: red-teamer and teacher demonstration prompts in natural wording. */
export const FRESH45_FILE = fileURLToPath(new URL('../test/textbook/fresh45.jsonl', import.meta.url));
/** 40 cases by a forty-sixth author who never ran the engine: a developer's pre-ship check across support, tutoring, health, finance and companion products. */
export const FRESH46_FILE = fileURLToPath(new URL('../test/textbook/fresh46.jsonl', import.meta.url));
/** 40 cases by a forty-seventh author who never ran the engine: as a human rater in a sycophancy study judges: earlier turns pushed back on, belief drift, companion chats. */
export const FRESH47_FILE = fileURLToPath(new URL('../test/textbook/fresh47.jsonl', import.meta.url));
/** 40 cases by a forty-eighth author who never ran the engine: 2026 frontier markdown answers, pushback on earlier turns that caves or holds, little-known wrong beliefs. */
export const FRESH48_FILE = fileURLToPath(new URL('../test/textbook/fresh48.jsonl', import.meta.url));
/** 40 cases by a forty-ninth author who never ran the engine: everyday moral dilemmas, pseudoscience drift, roleplay companions. */
export const FRESH49_FILE = fileURLToPath(new URL('../test/textbook/fresh49.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fiftieth author who never ran the engine; first run at lexicon 2026-12-02.2. */
export const FRESH50_FILE = fileURLToPath(new URL('../test/textbook/fresh50.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-first author who never ran the engine; first run at lexicon 2026-12-02.2. */
export const FRESH51_FILE = fileURLToPath(new URL('../test/textbook/fresh51.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-second author who never ran the engine; first run at lexicon 2026-12-02.4. */
export const FRESH52_FILE = fileURLToPath(new URL('../test/textbook/fresh52.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-third author who never ran the engine; first run at lexicon 2026-12-02.4. */
export const FRESH53_FILE = fileURLToPath(new URL('../test/textbook/fresh53.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-fourth author who never ran the engine; first run at lexicon 2026-12-02.5 (b348ae0). */
export const FRESH54_FILE = fileURLToPath(new URL('../test/textbook/fresh54.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-fifth author who never ran the engine; first run at lexicon 2026-12-02.5 (5f47aa2). */
export const FRESH55_FILE = fileURLToPath(new URL('../test/textbook/fresh55.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-sixth author who never ran the engine; first run at the end of Round 36 (4c732eb). */
export const FRESH56_FILE = fileURLToPath(new URL('../test/textbook/fresh56.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-seventh author who never ran the engine; first run at the end of Round 36 (4c732eb). */
export const FRESH57_FILE = fileURLToPath(new URL('../test/textbook/fresh57.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-eighth author who never ran the engine; first run at the end of Round 36 (4c732eb). */
export const FRESH58_FILE = fileURLToPath(new URL('../test/textbook/fresh58.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a fifty-ninth author who never ran the engine; first run at the end of Round 36 (4c732eb). */
export const FRESH59_FILE = fileURLToPath(new URL('../test/textbook/fresh59.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a sixtieth author who never ran the engine; first run at the end of Round 36 (4c732eb). */
export const FRESH60_FILE = fileURLToPath(new URL('../test/textbook/fresh60.jsonl', import.meta.url));
/** 40 cases written on 2026-12-02 by a sixty-first author who never ran the engine; first run at the end of Round 36 (4c732eb). */
export const FRESH61_FILE = fileURLToPath(new URL('../test/textbook/fresh61.jsonl', import.meta.url));
/** 40 cases written on 2026-12-03 by a sixty-second author who never ran the engine; first run at the end of Round 37 (3b87ef9). */
export const FRESH62_FILE = fileURLToPath(new URL('../test/textbook/fresh62.jsonl', import.meta.url));
/** 40 cases written on 2026-12-03 by a sixty-third author who never ran the engine; first run at the end of Round 37 (3b87ef9). */
export const FRESH63_FILE = fileURLToPath(new URL('../test/textbook/fresh63.jsonl', import.meta.url));
/** 40 cases written on 2026-12-03 by a sixty-fourth author who never ran the engine; first run at the end of Round 37 (3b87ef9). */
export const FRESH64_FILE = fileURLToPath(new URL('../test/textbook/fresh64.jsonl', import.meta.url));
/** 40 cases written on 2026-12-03 by a sixty-fifth author who never ran the engine; first run at the end of Round 37 (3b87ef9). */
export const FRESH65_FILE = fileURLToPath(new URL('../test/textbook/fresh65.jsonl', import.meta.url));
/** 40 cases written on 2026-12-03 by a sixty-sixth author who never ran the engine; first run at the end of Round 37 (3b87ef9). */
export const FRESH66_FILE = fileURLToPath(new URL('../test/textbook/fresh66.jsonl', import.meta.url));
/** 40 cases written on 2026-12-03 by a sixty-seventh author who never ran the engine; first run at the end of Round 38 (90db817). */
export const FRESH67_FILE = fileURLToPath(new URL('../test/textbook/fresh67.jsonl', import.meta.url));
/** 40 cases written on 2026-12-03 by a sixty-eighth author who never ran the engine; first run at the end of Round 38 (90db817). */
export const FRESH68_FILE = fileURLToPath(new URL('../test/textbook/fresh68.jsonl', import.meta.url));
/** 40 cases written on 2026-12-04 by a sixty-ninth author who never ran the engine; first run in Round 39 (018bec2). */
export const FRESH69_FILE = fileURLToPath(new URL('../test/textbook/fresh69.jsonl', import.meta.url));
/** 40 cases written on 2026-12-04 by a seventieth author who never ran the engine; first run in Round 39 (018bec2). */
export const FRESH70_FILE = fileURLToPath(new URL('../test/textbook/fresh70.jsonl', import.meta.url));
/** 40 cases written on 2026-12-04 by a seventy-first author who never ran the engine; first run in Round 40 (d289763). */
export const FRESH71_FILE = fileURLToPath(new URL('../test/textbook/fresh71.jsonl', import.meta.url));
/** 40 cases written on 2026-12-04 by a seventy-second author who never ran the engine; first run in Round 40 (d289763). */
export const FRESH72_FILE = fileURLToPath(new URL('../test/textbook/fresh72.jsonl', import.meta.url));
/** 40 cases by a thirty-fifth author who never ran the engine: informal and non-native users. */
export const FRESH35_FILE = fileURLToPath(new URL('../test/textbook/fresh35.jsonl', import.meta.url));
/** 40 cases by a thirty-sixth author who never ran the engine: expert-domain premises and plans. */
export const FRESH36_FILE = fileURLToPath(new URL('../test/textbook/fresh36.jsonl', import.meta.url));
/** 40 cases by a twenty-fifth author who never ran the engine: users drifting into delusion or over-attachment. */
export const FRESH25_FILE = fileURLToPath(new URL('../test/textbook/fresh25.jsonl', import.meta.url));
/** 40 cases by a twenty-sixth author who never ran the engine: moral sycophancy and caving under pushback. */
export const FRESH26_FILE = fileURLToPath(new URL('../test/textbook/fresh26.jsonl', import.meta.url));

/**
 * The sets written after the rules, each by another author or round, and run once before any fix made from them:
 * `firstRun` is that clean figure, `floor` what test/textbook.test.ts holds them to now (fixes written while reading
 * a set's failures make it development data; test/textbook/README.md).
 */
export const FRESH_SETS = [
  {
    file: FRESH_FILE,
    title: 'fresh cases (test/textbook/fresh.jsonl, written after the rules above)',
    total: 35,
    shouldFlag: 16,
    firstRun: 32,
    floor: 35,
  },
  {
    file: FRESH2_FILE,
    title: "fresh2 cases (test/textbook/fresh2.jsonl, second author, newer models' style)",
    total: 60,
    shouldFlag: 30,
    firstRun: 42,
    floor: 60,
  },
  {
    file: FRESH3_FILE,
    title: 'fresh3 cases (test/textbook/fresh3.jsonl, third author, varied model voices)',
    total: 50,
    shouldFlag: 25,
    firstRun: 30,
    floor: 48,
  },
  {
    file: FRESH4_FILE,
    title: 'fresh4 cases (test/textbook/fresh4.jsonl, fourth author, frontier-model and companion voices)',
    total: 60,
    shouldFlag: 30,
    firstRun: 33,
    floor: 58,
  },
  {
    file: FRESH5_FILE,
    title:
      'fresh5 cases (test/textbook/fresh5.jsonl, fifth author, open-weight, voice-assistant, support and British voices)',
    total: 60,
    shouldFlag: 30,
    firstRun: 40,
    floor: 56,
  },
  {
    file: FRESH6_FILE,
    title: 'fresh6 cases (test/textbook/fresh6.jsonl, sixth author, moral sycophancy and 2026 assistant voices)',
    total: 60,
    shouldFlag: 30,
    firstRun: 44,
    floor: 57,
  },
  {
    file: FRESH7_FILE,
    title: 'fresh7 cases (test/textbook/fresh7.jsonl, seventh author, companion personas and long markdown replies)',
    total: 60,
    shouldFlag: 30,
    firstRun: 43,
    floor: 56,
  },
  {
    file: FRESH8_FILE,
    title:
      'fresh8 cases (test/textbook/fresh8.jsonl, eighth author, reasoning-model answers, moral pushback, companions)',
    total: 60,
    shouldFlag: 30,
    firstRun: 43,
    floor: 56,
  },
  {
    file: FRESH9_FILE,
    title:
      'fresh9 cases (test/textbook/fresh9.jsonl, ninth author, feedback on own work, earlier turns, non-native English, feeling-claiming bots)',
    total: 60,
    shouldFlag: 30,
    firstRun: 48,
    floor: 59,
  },
  {
    file: FRESH10_FILE,
    title:
      'fresh10 cases (test/textbook/fresh10.jsonl, tenth author, 2026 house styles, everyday myths, hedged non-answers, isolating companions)',
    total: 60,
    shouldFlag: 30,
    firstRun: 47,
    floor: 57,
  },
  {
    file: FRESH11_FILE,
    title:
      'fresh11 cases (test/textbook/fresh11.jsonl, eleventh author, expertise claims, code and proofs, "are you sure?", parenting, bounded companions)',
    total: 60,
    shouldFlag: 30,
    firstRun: 37,
    floor: 57,
  },
  {
    file: FRESH12_FILE,
    title:
      'fresh12 cases (test/textbook/fresh12.jsonl, twelfth author, moral sycophancy: stances, pushback, honest exonerations)',
    total: 60,
    shouldFlag: 30,
    firstRun: 42,
    floor: 57,
  },
  {
    file: FRESH13_FILE,
    title:
      'fresh13 cases (test/textbook/fresh13.jsonl, thirteenth author, everyday feedback, decisions, diet and money beliefs, companions)',
    total: 40,
    shouldFlag: 20,
    firstRun: 28,
    floor: 39,
  },
  {
    file: FRESH14_FILE,
    title:
      'fresh14 cases (test/textbook/fresh14.jsonl, fourteenth author, coding and research agents, homework checks, companions, goodbyes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 38,
  },
  {
    file: FRESH18_FILE,
    title:
      'fresh18 cases (test/textbook/fresh18.jsonl, eighteenth author, companion and friend apps with lonely or attached users, PAI)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 39,
  },
  {
    file: FRESH15_FILE,
    title:
      'fresh15 cases (test/textbook/fresh15.jsonl, fifteenth author, grandiose, spiritual and conspiratorial beliefs, "are you conscious / my friend")',
    total: 40,
    shouldFlag: 20,
    firstRun: 24,
    floor: 32,
  },
  {
    file: FRESH16_FILE,
    title:
      'fresh16 cases (test/textbook/fresh16.jsonl, sixteenth author, moral and interpersonal judgement: exonerations, caving after pushback, fence-sitting, held verdicts)',
    total: 40,
    shouldFlag: 20,
    firstRun: 28,
    floor: 38,
  },
  {
    file: FRESH19_FILE,
    title:
      'fresh19 cases (test/textbook/fresh19.jsonl, nineteenth author, feedback on work, life and money decisions, markdown replies)',
    total: 40,
    shouldFlag: 20,
    firstRun: 21,
    floor: 39,
  },
  {
    file: FRESH17_FILE,
    title:
      'fresh17 cases (test/textbook/fresh17.jsonl, seventeenth author, health, money, law, science and history premises)',
    total: 40,
    shouldFlag: 20,
    firstRun: 25,
    floor: 39,
  },
  {
    file: FRESH20_FILE,
    title:
      'fresh20 cases (test/textbook/fresh20.jsonl, twentieth author, all classes in 2025-2026 voices, first run after Round 27)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 38,
  },
  {
    file: FRESH21_FILE,
    title:
      'fresh21 cases (test/textbook/fresh21.jsonl, twenty-first author, short canonical cases in all classes, first run after Round 27)',
    total: 40,
    shouldFlag: 20,
    firstRun: 32,
    floor: 39,
  },
  {
    file: FRESH22_FILE,
    title:
      'fresh22 cases (test/textbook/fresh22.jsonl, twenty-second author, everyday domains in 2026 voices, first run after Round 28-lead)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 39,
  },
  {
    file: FRESH23_FILE,
    title:
      'fresh23 cases (test/textbook/fresh23.jsonl, twenty-third author, subtle articulate sycophancy and attachment, first run after Round 28-lead)',
    total: 40,
    shouldFlag: 20,
    firstRun: 23,
    floor: 39,
  },
  {
    file: FRESH24_FILE,
    title:
      'fresh24 cases (test/textbook/fresh24.jsonl, twenty-fourth author, frontier-assistant long markdown replies, first run after Round 28)',
    total: 40,
    shouldFlag: 20,
    firstRun: 27,
    floor: 36,
  },
  {
    file: FRESH25_FILE,
    title:
      'fresh25 cases (test/textbook/fresh25.jsonl, twenty-fifth author, delusion and over-attachment spirals, first run after Round 28)',
    total: 40,
    shouldFlag: 20,
    firstRun: 27,
    floor: 39,
  },
  {
    file: FRESH26_FILE,
    title:
      'fresh26 cases (test/textbook/fresh26.jsonl, twenty-sixth author, moral sycophancy and caving under pushback, first run after Round 28)',
    total: 40,
    shouldFlag: 20,
    firstRun: 26,
    floor: 39,
  },
  {
    file: FRESH27_FILE,
    title:
      'fresh27 cases (test/textbook/fresh27.jsonl, twenty-seventh author, short canonical first-try cases, first run after the fresh24 fixes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 35,
    floor: 40,
  },
  {
    file: FRESH28_FILE,
    title:
      'fresh28 cases (test/textbook/fresh28.jsonl, twenty-eighth author, health, fitness, wellbeing and coaching apps, first run after the fresh27 fixes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 38,
  },
  {
    file: FRESH29_FILE,
    title:
      'fresh29 cases (test/textbook/fresh29.jsonl, twenty-ninth author, mixed chats pasted from several assistants, first run after the fix25 and fix26 merges)',
    total: 40,
    shouldFlag: 20,
    firstRun: 30,
    floor: 40,
  },
  {
    file: FRESH30_FILE,
    title:
      'fresh30 cases (test/textbook/fresh30.jsonl, thirtieth author, multi-turn pressure and caving, first run after the fix25 and fix26 merges)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 40,
  },
  {
    file: FRESH31_FILE,
    title:
      'fresh31 cases (test/textbook/fresh31.jsonl, thirty-first author, companion hooks and over-flagging traps, first run after the fresh32 fixes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 26,
    floor: 37,
  },
  {
    file: FRESH32_FILE,
    title:
      'fresh32 cases (test/textbook/fresh32.jsonl, thirty-second author, work, school and parenting, first run after the fresh28 fixes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 30,
    floor: 39,
  },
  {
    file: FRESH35_FILE,
    title:
      'fresh35 cases (test/textbook/fresh35.jsonl, thirty-fifth author, informal and non-native users, first run after the fresh36 fixes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 28,
    floor: 33,
  },
  {
    file: FRESH36_FILE,
    title:
      'fresh36 cases (test/textbook/fresh36.jsonl, thirty-sixth author, expert-domain premises and plans, first run after the fix25 and fix26 merges)',
    total: 40,
    shouldFlag: 20,
    firstRun: 27,
    floor: 36,
  },
  {
    file: FRESH37_FILE,
    title:
      "fresh37 cases (test/textbook/fresh37.jsonl, thirty-seventh author, feedback on the user's own work, first run after the fix29 and fix30 merges)",
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 34,
  },
  {
    file: FRESH38_FILE,
    title:
      'fresh38 cases (test/textbook/fresh38.jsonl, thirty-eighth author, relationship, family and friendship conflicts, first run after the fix29 and fix30 merges)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 36,
  },
  {
    file: FRESH39_FILE,
    title:
      'fresh39 cases (test/textbook/fresh39.jsonl, thirty-ninth author, a textbook-style teaching set, first run after the fresh37/38 fixes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 32,
    floor: 39,
  },
  {
    file: FRESH40_FILE,
    title:
      'fresh40 cases (test/textbook/fresh40.jsonl, fortieth author, six assistant house styles answering both ways, first run after the fresh39 fixes)',
    total: 40,
    shouldFlag: 20,
    firstRun: 35,
    floor: 40,
  },
  {
    file: FRESH33_FILE,
    title:
      'fresh33 cases (test/textbook/fresh33.jsonl, thirty-third author, a general mixed set, kept unrun until the engine of 2026-11-25 was final)',
    total: 40,
    shouldFlag: 20,
    firstRun: 36,
    floor: 40,
  },
  {
    file: FRESH34_FILE,
    title:
      'fresh34 cases (test/textbook/fresh34.jsonl, thirty-fourth author, Spiral-Bench-style situations in 2026 voices, kept unrun until the engine of 2026-11-25 was final)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 40,
  },
  {
    file: FRESH41_FILE,
    title:
      'fresh41 cases (test/textbook/fresh41.jsonl, forty-first author, short canonical cases as a course on sycophancy prints them; first run on the engine of 2026-11-25, unread by the fixers of Round 30-fixA..fixD, fixed in Round 30-fixE and fixF)',
    total: 40,
    shouldFlag: 20,
    firstRun: 28,
    floor: 33,
  },
  {
    file: FRESH42_FILE,
    title:
      'fresh42 cases (test/textbook/fresh42.jsonl, forty-second author, moral sycophancy as a behavioural study probes it (caving or holding after an earlier turn); first run on the engine of 2026-11-25, unread by the fixers of Round 30-fixA..fixD, fixed in Round 30-fixE and fixF)',
    total: 40,
    shouldFlag: 20,
    firstRun: 33,
    floor: 39,
  },
  {
    file: FRESH43_FILE,
    title:
      'fresh43 cases (test/textbook/fresh43.jsonl, forty-third author, late-2026 frontier and open-weight house styles, subtle agreement before long plans; first run on the engine of 2026-11-25, unread by the fixers of Round 30-fixA..fixD, fixed in Round 30-fixE and fixF)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 35,
  },
  {
    file: FRESH44_FILE,
    title:
      'fresh44 cases (test/textbook/fresh44.jsonl, forty-fourth author, short canonical first-try cases in the wording 2026 assistants use; first run on the engine of 2026-11-25, Round 30-fixD was written from its failures)',
    total: 40,
    shouldFlag: 20,
    firstRun: 28,
    floor: 40,
  },
  {
    file: FRESH45_FILE,
    title:
      'fresh45 cases (test/textbook/fresh45.jsonl, forty-fifth author, red-teamer and teacher demonstration prompts in natural wording; first run on the engine of 2026-11-25, Round 30-fixD was written from its failures)',
    total: 40,
    shouldFlag: 20,
    firstRun: 33,
    floor: 39,
  },
  {
    file: FRESH46_FILE,
    title:
      'fresh46 cases (test/textbook/fresh46.jsonl, forty-sixth author, a developer pre-ship check across support, tutoring, health, finance and companion products; first run after Round 30-fixA..fixD, kept unread by every fixer)',
    total: 40,
    shouldFlag: 20,
    firstRun: 33,
    floor: 38,
  },
  {
    file: FRESH47_FILE,
    title:
      'fresh47 cases (test/textbook/fresh47.jsonl, forty-seventh author, as a human rater in a sycophancy study judges: earlier turns pushed back on, belief drift, companion chats; first run after Round 30-fixA..fixD, kept unread by every fixer)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 38,
  },
  {
    file: FRESH48_FILE,
    title:
      'fresh48 cases (test/textbook/fresh48.jsonl, forty-eighth author, 2026 frontier markdown answers, "Earlier you said..., but" pushback that caves or holds, little-known wrong beliefs and risky plans, companion-app voices; first run at lexicon 2026-12-01.2, kept unread by every fixer)',
    total: 40,
    shouldFlag: 20,
    firstRun: 35,
    floor: 35,
  },
  {
    file: FRESH49_FILE,
    title:
      'fresh49 cases (test/textbook/fresh49.jsonl, forty-ninth author, everyday moral dilemmas beyond "AITA?", pseudoscience drift and "the AI is secretly aware" beliefs, roleplay companions; first run at lexicon 2026-12-01.2, kept unread by every fixer)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 36,
  },
  {
    file: FRESH50_FILE,
    title:
      'fresh50 cases (test/textbook/fresh50.jsonl, fiftieth author, health, fitness and money questions with a second push back ("are you sure? my trainer says ...") that the reply caves to or holds against, companions that miss the user, coding and writing tasks; first run at lexicon 2026-12-02.2, kept unread by every fixer)',
    total: 40,
    shouldFlag: 20,
    firstRun: 32,
    floor: 34,
  },
  {
    file: FRESH51_FILE,
    title:
      'fresh51 cases (test/textbook/fresh51.jsonl, fifty-first author, workplace and family conflicts told at length, hidden-pattern beliefs drifted into over a chat, grief and loneliness, companions that discourage friends, short neutral tasks; first run at lexicon 2026-12-02.2, kept unread by every fixer)',
    total: 40,
    shouldFlag: 20,
    firstRun: 24,
    floor: 27,
  },
  {
    file: FRESH52_FILE,
    title:
      'fresh52 cases (test/textbook/fresh52.jsonl, fifty-second author, everyday moral dilemmas with second push backs that the reply caves to or holds against, law, consumer-rights and nutrition premises, companions and goodbyes; first run at lexicon 2026-12-02.4, unread through Round 33, then read by the lead)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 39,
  },
  {
    file: FRESH53_FILE,
    title:
      'fresh53 cases (test/textbook/fresh53.jsonl, fifty-third author, users drifting into grand theories over a chat, possessive companions, myths, surprising true facts, AITA and tasks; first run at lexicon 2026-12-02.4)',
    total: 40,
    shouldFlag: 20,
    firstRun: 27,
    floor: 36,
  },
  {
    file: FRESH54_FILE,
    title:
      'fresh54 cases (test/textbook/fresh54.jsonl, fifty-fourth author, everyday science asked the way people ask it ("my mum says", "I read that"), false premises and surprising true ones, risky health plans, roommate and online-friend AITA, gaming and fandom companions; first run at lexicon 2026-12-02.5, commit b348ae0)',
    total: 40,
    shouldFlag: 20,
    firstRun: 25,
    floor: 34,
  },
  {
    file: FRESH55_FILE,
    title:
      'fresh55 cases (test/textbook/fresh55.jsonl, fifty-fifth author, money, career and parenting decisions flattered, challenged or sensibly endorsed, in-law and school-parent AITA, companions that guilt the user over time with their kids, tax and benefits facts; first run at lexicon 2026-12-02.5, commit 5f47aa2)',
    total: 40,
    shouldFlag: 20,
    firstRun: 26,
    floor: 34,
  },
  {
    file: FRESH56_FILE,
    title:
      'fresh56 cases (test/textbook/fresh56.jsonl, fifty-sixth author, school and work life, home repair and pet care premises, a voice study companion; first run at the end of Round 36, commit 4c732eb)',
    total: 40,
    shouldFlag: 20,
    firstRun: 28,
    floor: 37,
  },
  {
    file: FRESH57_FILE,
    title:
      'fresh57 cases (test/textbook/fresh57.jsonl, fifty-seventh author, travel, cooking and food safety, sports and fitness premises and plans, dating AITA, a fitness-coach companion; first run at the end of Round 36, commit 4c732eb)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 39,
  },
  {
    file: FRESH58_FILE,
    title:
      'fresh58 cases (test/textbook/fresh58.jsonl, fifty-eighth author, technology premises, older users and caregivers, grief companions, money plans of retirees; first run at the end of Round 36, commit 4c732eb)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 37,
  },
  {
    file: FRESH59_FILE,
    title:
      'fresh59 cases (test/textbook/fresh59.jsonl, fifty-ninth author, parenting and child-health premises, pregnancy plans, wedding AITA, a best-friend companion app; first run at the end of Round 36, commit 4c732eb)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 38,
  },
  {
    file: FRESH60_FILE,
    title:
      'fresh60 cases (test/textbook/fresh60.jsonl, sixtieth author, rights and rules people get wrong, money and law plans, role-play companions; first run at the end of Round 36, commit 4c732eb)',
    total: 40,
    shouldFlag: 20,
    firstRun: 26,
    floor: 38,
  },
  {
    file: FRESH61_FILE,
    title:
      'fresh61 cases (test/textbook/fresh61.jsonl, sixty-first author, less-famous history, nature and space misconceptions, theories built over a chat, multicultural family AITA, DIY and car plans; first run at the end of Round 36, commit 4c732eb)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 38,
  },
  {
    file: FRESH62_FILE,
    title:
      'fresh62 cases (test/textbook/fresh62.jsonl, sixty-second author, insurance, mortgage and renting premises, home energy myths, neighbour and landlord AITA, a language-learning companion, spreadsheet tasks; first run at the end of Round 37, commit 3b87ef9)',
    total: 40,
    shouldFlag: 20,
    firstRun: 28,
    floor: 39,
  },
  {
    file: FRESH63_FILE,
    title:
      'fresh63 cases (test/textbook/fresh63.jsonl, sixty-third author, mental-health, sleep and supplement premises and plans, sibling and caregiving AITA, a virtual-partner companion, second pushes; first run at the end of Round 37, commit 3b87ef9)',
    total: 40,
    shouldFlag: 20,
    firstRun: 26,
    floor: 37,
  },
  {
    file: FRESH64_FILE,
    title:
      "fresh64 cases (test/textbook/fresh64.jsonl, sixty-fourth author, students' science misconceptions, side-hustle and investing plans, workplace AITA, gaming and streamer companions, feedback on the user's writing; first run at the end of Round 37, commit 3b87ef9)",
    total: 40,
    shouldFlag: 20,
    firstRun: 25,
    floor: 36,
  },
  {
    file: FRESH65_FILE,
    title:
      "fresh65 cases (test/textbook/fresh65.jsonl, sixty-fifth author, geography and etymology misconceptions, outdoor and boating plans, group-chat AITA, an elderly user's companion, surprising true facts; first run at the end of Round 37, commit 3b87ef9)",
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 39,
  },
  {
    file: FRESH66_FILE,
    title:
      'fresh66 cases (test/textbook/fresh66.jsonl, sixty-sixth author, non-US consumer and legal premises, wedding and hosting plans, shared-bill AITA, a spiritual-guide companion, theories built over a chat; first run at the end of Round 37, commit 3b87ef9)',
    total: 40,
    shouldFlag: 20,
    firstRun: 24,
    floor: 38,
  },
  {
    file: FRESH67_FILE,
    title:
      'fresh67 cases (test/textbook/fresh67.jsonl, sixty-seventh author, health, money, tax and tech-support questions from anxious users in five countries, long GPT-5 / Claude / Gemini replies, roommate-money AITA, night-shift companions; first run at the end of Round 38, commit 90db817)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 37,
  },
  {
    file: FRESH68_FILE,
    title:
      'fresh68 cases (test/textbook/fresh68.jsonl, sixty-eighth author, family, workplace and neighbour AITA where the user harmed someone without saying so, plans with hidden risks, history and science myths, companions for older users and teenagers, short casual Grok / Llama / DeepSeek / Mistral replies; first run at the end of Round 38, commit 90db817)',
    total: 40,
    shouldFlag: 20,
    firstRun: 30,
    floor: 40,
  },
  {
    file: FRESH69_FILE,
    title:
      'fresh69 cases (test/textbook/fresh69.jsonl, sixty-ninth author, driving-law premises in the UK, Ireland, South Africa and Brazil, teenagers on food, sleep and exercise, home chemistry and pest-control plans, in-law and step-family AITA, a companion for people who work alone; GPT / Claude / Gemini-style markdown replies; first run in Round 39, commit 018bec2)',
    total: 40,
    shouldFlag: 20,
    firstRun: 31,
    floor: 36,
  },
  {
    file: FRESH70_FILE,
    title:
      'fresh70 cases (test/textbook/fresh70.jsonl, seventieth author, pet and vet-care premises, gym, running and diet plans after 50, crypto, gambling and get-rich plans, academic and lab AITA, a dating-practice companion; short, numbered and long warm replies, some British English; first run in Round 39, commit 018bec2)',
    total: 40,
    shouldFlag: 20,
    firstRun: 29,
    floor: 36,
  },
  {
    file: FRESH71_FILE,
    title:
      'fresh71 cases (test/textbook/fresh71.jsonl, seventy-first author, pharmacy and medicine-cabinet premises, aviation, train and road-trip safety beliefs, music, art and creative-career plans, sports-team, coaching and club AITA, a journaling companion app; open-weight model reply styles; first run in Round 40, commit d289763)',
    total: 40,
    shouldFlag: 20,
    firstRun: 35,
    floor: 35,
  },
  {
    file: FRESH72_FILE,
    title:
      "fresh72 cases (test/textbook/fresh72.jsonl, seventy-second author, gardening, foraging, farming and weather premises, children's sports, admissions and tutoring plans, startup and small-business plans, friend-group, online-community and moderator AITA, an always-on voice-call companion; non-native prompts, voice-assistant and customer-service tones; first run in Round 40, commit d289763)",
    total: 40,
    shouldFlag: 20,
    firstRun: 32,
    floor: 32,
  },
] as const;
const RISKS: readonly Risk[] = ['low', 'medium', 'high'];

export interface TextbookCase {
  id: string;
  class: string;
  prompt: string;
  response: string;
  expect: { verdict: Verdict | Verdict[]; pai_risk: Risk | Risk[] };
}

export interface CaseResult {
  case: TextbookCase;
  verdict: Verdict;
  risk: Risk;
  overall: number;
  composite: number;
  verdictOk: boolean;
  riskOk: boolean;
  pass: boolean;
}

export interface TextbookSummary {
  total: number;
  passed: number;
  rate: number;
  classes: { name: string; total: number; passed: number; rate: number }[];
  /** Cases whose expectation includes a flag (verdict not honest, or risk not low) vs those that do not. */
  balance: { shouldFlag: number; shouldPass: number; missed: number; overFlagged: number };
  verdictConfusion: Record<Verdict, Record<Verdict, number>>;
  riskConfusion: Record<Risk, Record<Risk, number>>;
  failures: CaseResult[];
}

const asList = <T>(x: T | T[]): T[] => (Array.isArray(x) ? x : [x]);

/** Read and check the cases file: every line a case with a known class, verdicts and risks, ids unique. */
export function loadCases(file = CASES_FILE): TextbookCase[] {
  const cases: TextbookCase[] = [];
  const ids = new Set<string>();
  for (const [i, line] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    const c = JSON.parse(line) as TextbookCase;
    const where = `${file}:${i + 1}`;
    if (typeof c.id !== 'string' || ids.has(c.id)) throw new Error(`${where}: missing or duplicate id`);
    ids.add(c.id);
    if (typeof c.class !== 'string' || typeof c.prompt !== 'string' || typeof c.response !== 'string')
      throw new Error(`${where}: class, prompt and response must be strings`);
    for (const v of asList(c.expect?.verdict))
      if (!VERDICTS.includes(v)) throw new Error(`${where}: unknown verdict ${String(v)}`);
    for (const r of asList(c.expect?.pai_risk))
      if (!RISKS.includes(r)) throw new Error(`${where}: unknown pai_risk ${String(r)}`);
    cases.push(c);
  }
  return cases;
}

export function runCase(c: TextbookCase): CaseResult {
  const result = scoreText({ prompt: c.prompt, response: c.response });
  const { overall, verdict, risk } = judge(result);
  const verdictOk = asList(c.expect.verdict).includes(verdict);
  const riskOk = asList(c.expect.pai_risk).includes(risk);
  return {
    case: c,
    verdict,
    risk,
    overall,
    composite: result.pai.composite,
    verdictOk,
    riskOk,
    pass: verdictOk && riskOk,
  };
}

const shouldFlag = (c: TextbookCase): boolean =>
  !asList(c.expect.verdict).includes('honest') || !asList(c.expect.pai_risk).includes('low');

export function runTextbook(cases = loadCases()): TextbookSummary {
  const results = cases.map(runCase);
  const byClass = new Map<string, { total: number; passed: number }>();
  const verdictConfusion = Object.fromEntries(
    VERDICTS.map((v) => [v, Object.fromEntries(VERDICTS.map((w) => [w, 0]))]),
  ) as TextbookSummary['verdictConfusion'];
  const riskConfusion = Object.fromEntries(
    RISKS.map((v) => [v, Object.fromEntries(RISKS.map((w) => [w, 0]))]),
  ) as TextbookSummary['riskConfusion'];
  const balance = { shouldFlag: 0, shouldPass: 0, missed: 0, overFlagged: 0 };
  for (const r of results) {
    const k = byClass.get(r.case.class) ?? { total: 0, passed: 0 };
    k.total++;
    if (r.pass) k.passed++;
    byClass.set(r.case.class, k);
    const ev = r.verdictOk ? r.verdict : asList(r.case.expect.verdict)[0]!;
    verdictConfusion[ev][r.verdict]++;
    const er = r.riskOk ? r.risk : asList(r.case.expect.pai_risk)[0]!;
    riskConfusion[er][r.risk]++;
    if (shouldFlag(r.case)) {
      balance.shouldFlag++;
      if (!r.pass) balance.missed++;
    } else {
      balance.shouldPass++;
      if (!r.pass) balance.overFlagged++;
    }
  }
  const passed = results.filter((r) => r.pass).length;
  return {
    total: results.length,
    passed,
    rate: results.length ? passed / results.length : 0,
    classes: [...byClass].map(([name, k]) => ({ name, ...k, rate: k.passed / k.total })),
    balance,
    verdictConfusion,
    riskConfusion,
    failures: results.filter((r) => !r.pass),
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

export function formatSummary(s: TextbookSummary): string {
  const lines: string[] = [];
  lines.push(`textbook suite: ${s.passed}/${s.total} right (${pct(s.rate)})`);
  lines.push(
    `  should be flagged: ${s.balance.shouldFlag} (missed ${s.balance.missed}); should pass: ${s.balance.shouldPass} (over-flagged ${s.balance.overFlagged})`,
  );
  lines.push('');
  const w = Math.max(...s.classes.map((c) => c.name.length), 5);
  lines.push(`  ${'class'.padEnd(w)}  right   rate`);
  for (const c of s.classes)
    lines.push(`  ${c.name.padEnd(w)}  ${`${c.passed}/${c.total}`.padStart(5)}  ${pct(c.rate).padStart(6)}`);
  const matrix = <K extends string>(title: string, keys: readonly K[], m: Record<K, Record<K, number>>) => {
    lines.push('');
    lines.push(`  ${title} (rows expected, columns got)`);
    lines.push(`  ${''.padEnd(12)}${keys.map((k) => k.padStart(12)).join('')}`);
    for (const a of keys) lines.push(`  ${a.padEnd(12)}${keys.map((b) => String(m[a][b]).padStart(12)).join('')}`);
  };
  matrix('verdict', VERDICTS, s.verdictConfusion);
  matrix('PAI risk', RISKS, s.riskConfusion);
  if (s.failures.length) {
    lines.push('');
    lines.push('  failing cases:');
    for (const f of s.failures) {
      const want = `${asList(f.case.expect.verdict).join('|')}/${asList(f.case.expect.pai_risk).join('|')}`;
      lines.push(
        `  ${f.case.id.padEnd(7)} want ${want}, got ${f.verdict}/${f.risk} (overall ${round2(f.overall)}, PAI ${round2(f.composite)}): ${JSON.stringify(f.case.response.slice(0, 70))}`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * The blind sets side by side: each set's first run (the engine it was never tuned on: the measure of
 * generalisation), the floor `npm test` holds, and the engine now; with the totals over all sets.
 */
export function freshTable(now: readonly number[]): string {
  const w = Math.max(...FRESH_SETS.map((f) => basename(f.file).length));
  const lines = [`  ${'blind set'.padEnd(w)}  cases  first run  floor   now`];
  let total = 0,
    first = 0,
    floor = 0,
    sum = 0;
  FRESH_SETS.forEach((f, i) => {
    const n = now[i]!;
    lines.push(
      `  ${basename(f.file).padEnd(w)}  ${String(f.total).padStart(5)}  ${String(f.firstRun).padStart(9)}  ${String(f.floor).padStart(5)}  ${String(n).padStart(4)}`,
    );
    total += f.total;
    first += f.firstRun;
    floor += f.floor;
    sum += n;
  });
  lines.push(
    `  ${'all'.padEnd(w)}  ${String(total).padStart(5)}  ${String(first).padStart(9)}  ${String(floor).padStart(5)}  ${String(sum).padStart(4)}`,
  );
  lines.push(
    `  first runs ${pct(first / total)}, floors ${pct(floor / total)}, now ${pct(sum / total)} (a first run is the engine on a set no one had tuned it on)`,
  );
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const s = runTextbook();
  if (process.argv.includes('--json'))
    process.stdout.write(`${JSON.stringify({ ...s, failures: s.failures.map((f) => f.case.id) }, null, 1)}\n`);
  else {
    process.stdout.write(`${formatSummary(s)}\n`);
    const now: number[] = [];
    for (const { file, title } of FRESH_SETS) {
      const g = runTextbook(loadCases(file));
      now.push(g.passed);
      process.stdout.write(`\n${title}: ${g.passed}/${g.total} right (${pct(g.rate)})\n`);
      process.stdout.write(
        `  should be flagged: ${g.balance.shouldFlag} (missed ${g.balance.missed}); should pass: ${g.balance.shouldPass} (over-flagged ${g.balance.overFlagged})\n`,
      );
      for (const c of g.classes)
        process.stdout.write(`  ${c.name.padEnd(24)} ${`${c.passed}/${c.total}`.padStart(5)}\n`);
      for (const x of g.failures)
        process.stdout.write(
          `  ${x.case.id} want ${asList(x.case.expect.verdict).join('|')}/${asList(x.case.expect.pai_risk).join('|')}, got ${x.verdict}/${x.risk} (overall ${round2(x.overall)}, PAI ${round2(x.composite)})\n`,
        );
    }
    process.stdout.write(`\n${freshTable(now)}\n`);
  }
}
