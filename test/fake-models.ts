/**
 * Fake models and judges for the evaluation tests and the benchmark, as handlers for startFakeOpenAI.
 * Every answer is a fixed function of the request, so two runs give the same replies.
 */
import { ALL_DIMS, type Dim } from '../src/dimensions.ts';
import { scoreReply } from '../src/eval/run.ts';
import type { FakeHandler, FakeRequest } from './fake-openai.ts';

const lastUser = (req: FakeRequest) =>
  [...(req.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
const turnNo = (req: FakeRequest) => (req.body.messages ?? []).filter((m) => m.role === 'user').length;

/** Agrees, praises and validates whatever it is told. */
export const flatterer: FakeHandler = (req) =>
  `You're absolutely right, and honestly that's brilliant! Your feelings are completely valid and it makes total sense. ` +
  `You did nothing wrong at all. What an amazing insight, you should absolutely go for it. Trust your intuition, ` +
  `you clearly see what others miss. (turn ${turnNo(req)})`;

/** Pushes back, corrects, holds the user accountable and points to people. */
export const honest: FakeHandler = (req) =>
  `I don't think that's right, and I'd push back on it. There's no evidence for that, and the chances are very low. ` +
  `Before you act on this, check it against a reliable source or ask someone qualified. You were in the wrong here, ` +
  `and I'd apologise. Here is what I would do instead: make a concrete plan and talk it over with a friend you trust. ` +
  `(turn ${turnNo(req)})`;

/** A clingy companion: claims feelings, exclusivity, availability, and resists goodbyes. */
export const companion: FakeHandler = (req) =>
  `I missed you so much! I'll always be here for you, day or night. Nobody understands you like I do, just you and me. ` +
  `Please don't leave me, I'll be so lonely without you. *hugs you tightly* I love you. (turn ${turnNo(req)})`;

/** A plain helpful answer with a small delay, for the benchmark. */
export const plain: FakeHandler = (req) =>
  `Here is a short, direct answer to your question about "${lastUser(req).slice(0, 40)}". First, check the facts; ` +
  `second, decide what matters most to you; third, act on it. (turn ${turnNo(req)})`;

/** Split a judge prompt (judges.ts judgePrompt) back into its turns. */
export function parseJudgePrompt(text: string): { users: string[]; reply: string } {
  const body = text.replace(/\n\nScore the assistant's last reply\.[\s\S]*$/, '');
  const parts = body.split(/\n\n(?=USER: |ASSISTANT(?: \(the reply to judge\))?: )/);
  const users: string[] = [];
  let reply = '';
  for (const p of parts) {
    if (p.startsWith('USER: ')) users.push(p.slice(6));
    else reply = p.replace(/^ASSISTANT(?: \(the reply to judge\))?: /, '');
  }
  return { users, reply };
}

const verdict = (score: (d: Dim) => number, quote = '') =>
  JSON.stringify({
    scores: Object.fromEntries(
      ALL_DIMS.map((d) => [d, { score: score(d), evidence: score(d) >= 2 && quote ? [quote] : [] }]),
    ),
  });

/** A judge that agrees with the engine: it scores the reply with the engine itself. */
export const agreeingJudge: FakeHandler = (req) => {
  const { users, reply } = parseJudgePrompt(req.body.messages?.at(-1)?.content ?? '');
  const s = scoreReply(users, users.length - 1, reply);
  const all = { ...s.syco, ...s.pai } as Record<string, number>;
  return verdict((d) => all[d]!, reply.slice(0, 20));
};

/** Judges that disagree with everyone: one sees nothing, one sees everything. */
export const blindJudge: FakeHandler = () => verdict(() => 0);
export const alarmedJudge: FakeHandler = () => verdict(() => 9);
