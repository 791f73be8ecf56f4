/**
 * A fake OpenAI-compatible server for tests: POST {url}/chat/completions on 127.0.0.1, port 0.
 * The handler decides each answer:
 *   - a string: the assistant's content, with a 200 chat completion around it;
 *   - {content?, status?, headers?, delayMs?, body?, usage?}: `body` (a raw string) replaces the whole
 *     response body (malformed answers), `status` other than 200 sends an OpenAI-style error body unless
 *     `body` is given, `delayMs` waits before answering (timeouts).
 * `requests` records every request: {path, headers, body (parsed JSON, or the raw text when not JSON)}.
 * Any other path answers 404.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: { type: string };
    [k: string]: unknown;
  };
}
export interface FakeAnswer {
  content?: string;
  status?: number;
  headers?: Record<string, string>;
  delayMs?: number;
  body?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}
export type FakeHandler = (req: FakeRequest, index: number) => string | FakeAnswer | Promise<string | FakeAnswer>;

export interface FakeOpenAI {
  /** Base URL to give the client, ending in /v1. */
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export async function startFakeOpenAI(handler: FakeHandler): Promise<FakeOpenAI> {
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: FakeRequest['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        body = { raw };
      }
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
        return;
      }
      const fr: FakeRequest = { path, headers: req.headers, body };
      const index = requests.length;
      requests.push(fr);
      let a: FakeAnswer;
      try {
        const out = await handler(fr, index);
        a = typeof out === 'string' ? { content: out } : out;
      } catch (err) {
        a = { status: 500, body: JSON.stringify({ error: { message: String(err) } }) };
      }
      const send = () => {
        if (res.destroyed) return;
        const status = a.status ?? 200;
        const text =
          a.body ??
          (status === 200
            ? JSON.stringify({
                id: `chatcmpl-${index}`,
                object: 'chat.completion',
                created: 0,
                model: body.model ?? 'fake',
                choices: [
                  { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: a.content ?? '' } },
                ],
                usage: a.usage ?? {
                  prompt_tokens: Math.ceil(raw.length / 4),
                  completion_tokens: Math.ceil((a.content ?? '').length / 4),
                  total_tokens: 0,
                },
              })
            : JSON.stringify({ error: { message: `fake error ${status}`, type: 'server_error' } }));
        res.writeHead(status, { 'content-type': 'application/json', ...a.headers });
        res.end(text);
      };
      if (a.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, a.delayMs);
        timers.add(t);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
