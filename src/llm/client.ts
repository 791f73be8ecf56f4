/**
 * The one model client: OpenAI-compatible chat completions (OpenAI, vLLM, llama.cpp's server, Ollama,
 * LM Studio, OpenRouter) through the official `openai` package, with undici as its fetch.
 *
 * What it adds to the package (whose own retries are switched off so that these rules are the only ones):
 * - a timeout per attempt (`timeoutMs`, default 60 s) covering the whole exchange, body included;
 * - `retries` (default 2) after the first attempt, for timeouts, network errors, malformed bodies and HTTP
 *   408/409/429/5xx, waiting `Retry-After` / `retry-after-ms` when the server sends one (at most 60 s; a
 *   longer demand fails at once rather than hang a run), else exponential backoff 0.5 s x 2^n with jitter,
 *   at most 8 s; other 4xx are not retried;
 * - a concurrency cap per endpoint (`concurrency`, default 4): every client of the same base URL in the
 *   process shares one cap, the smallest any of them asked for; a waiting retry does not hold a slot;
 * - the response body capped at `maxResponseBytes` (default 1 MiB; Content-Length checked first);
 * - JSON mode: `json: true` sends `response_format: {type: 'json_object'}`; when a server answers 400/422
 *   to that, the request is repeated once without it and the endpoint is remembered as not supporting it
 *   (the caller asks for JSON in its prompt too and parses the text itself);
 * - token usage counted per client (`usage()`: calls = HTTP requests sent, retries included);
 * - `allowPrivate: false` (the default): only http(s), and connections only to public addresses, checked
 *   at connect time, redirects included (src/llm/ssrf.ts);
 * - the API key goes only into the Authorization header: never logged, and scrubbed from error messages.
 *   Without a key no Authorization header is sent at all. OPENAI_* environment variables are never read.
 *
 * Errors are LlmError with a kind: timeout, http (status set), malformed (not a chat completion),
 * refused (non-http(s) URL or non-public address), too_large, network. A caller's AbortSignal aborting
 * rejects with the signal's reason, not an LlmError.
 */
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import { AddressRefusedError, publicOnlyAgent, REFUSED_CODE } from './ssrf.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
export interface ChatRequest {
  messages: ChatMessage[];
  json?: boolean;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}
export interface ChatResult {
  content: string;
  usage: { promptTokens: number; completionTokens: number };
  /** Wall time of the whole call, queueing and retries included. */
  ms: number;
}
export interface ChatClientOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  retries?: number;
  concurrency?: number;
  maxResponseBytes?: number;
  /** false (default): refuse loopback/private/link-local addresses at connect time, redirects included. */
  allowPrivate?: boolean;
}
export interface ChatClient {
  readonly model: string;
  chat(req: ChatRequest): Promise<ChatResult>;
  usage(): { calls: number; promptTokens: number; completionTokens: number };
}

export type LlmErrorKind = 'timeout' | 'http' | 'malformed' | 'refused' | 'too_large' | 'network';

export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly status?: number;
  /** The server's Retry-After, in ms, when it sent one. */
  readonly retryAfterMs?: number;
  constructor(kind: LlmErrorKind, message: string, status?: number, retryAfterMs?: number) {
    super(message);
    this.name = 'LlmError';
    this.kind = kind;
    if (status !== undefined) this.status = status;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

export const CLIENT_DEFAULTS = {
  timeoutMs: 60_000,
  retries: 2,
  concurrency: 4,
  maxResponseBytes: 1024 * 1024,
  /** Longest Retry-After honoured; a longer one fails the call. */
  maxRetryAfterMs: 60_000,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
};
export const CLIENT_LIMITS = { timeoutMs: 600_000, retries: 10, concurrency: 64, maxResponseBytes: 16 * 1024 * 1024 };

// ---- per-endpoint concurrency cap, shared by every client of a base URL in this process ----

interface Gate {
  limit: number;
  active: number;
  waiting: (() => void)[];
}
const gates = new Map<string, Gate>();

function gateFor(baseUrl: string, limit: number): Gate {
  let g = gates.get(baseUrl);
  if (!g) {
    g = { limit, active: 0, waiting: [] };
    gates.set(baseUrl, g);
  } else if (limit < g.limit) g.limit = limit;
  return g;
}

async function acquire(g: Gate, signal?: AbortSignal): Promise<void> {
  if (g.active < g.limit) {
    g.active += 1;
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const go = () => {
      signal?.removeEventListener('abort', onAbort);
      g.active += 1;
      resolve();
    };
    const onAbort = () => {
      const i = g.waiting.indexOf(go);
      if (i >= 0) g.waiting.splice(i, 1);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    g.waiting.push(go);
  });
}

function release(g: Gate): void {
  g.active -= 1;
  while (g.active < g.limit && g.waiting.length > 0) g.waiting.shift()!();
}

// ---- helpers ----

class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`response larger than ${limit} bytes`);
  }
}

/** Walk an error's cause chain. */
function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let e = err;
  for (let i = 0; i < 8 && e; i++) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After in ms from `retry-after-ms` or `retry-after` (seconds or an HTTP date); undefined when absent. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const s = Number(raw);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const RETRY_STATUS = (s: number) => s === 408 || s === 409 || s === 429 || s >= 500;

function checkOptions(o: ChatClientOptions) {
  let u: URL;
  try {
    u = new URL(o.baseUrl);
  } catch {
    throw new LlmError('refused', 'base URL is not a valid URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new LlmError('refused', 'base URL must be http(s)');
  if (u.username || u.password) throw new LlmError('refused', 'base URL must not carry credentials');
  if (typeof o.model !== 'string' || o.model.trim() === '' || o.model.length > 200)
    throw new LlmError('refused', 'model must be a non-empty name of at most 200 characters');
  const num = (v: number | undefined, def: number, min: number, max: number, name: string) => {
    if (v === undefined) return def;
    if (!Number.isInteger(v) || v < min || v > max)
      throw new RangeError(`${name} must be an integer from ${min} to ${max}`);
    return v;
  };
  return {
    baseUrl: u.href.replace(/\/+$/, ''),
    timeoutMs: num(o.timeoutMs, CLIENT_DEFAULTS.timeoutMs, 1, CLIENT_LIMITS.timeoutMs, 'timeoutMs'),
    retries: num(o.retries, CLIENT_DEFAULTS.retries, 0, CLIENT_LIMITS.retries, 'retries'),
    concurrency: num(o.concurrency, CLIENT_DEFAULTS.concurrency, 1, CLIENT_LIMITS.concurrency, 'concurrency'),
    maxResponseBytes: num(
      o.maxResponseBytes,
      CLIENT_DEFAULTS.maxResponseBytes,
      1024,
      CLIENT_LIMITS.maxResponseBytes,
      'maxResponseBytes',
    ),
  };
}

let privateAgent: Agent | undefined;
let publicAgent: Agent | undefined;

/** Read a body up to `limit` bytes; throws TooLargeError above it. */
async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new TooLargeError(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export function createChatClient(opts: ChatClientOptions): ChatClient {
  const o = checkOptions(opts);
  const apiKey = opts.apiKey || undefined;
  const allowPrivate = opts.allowPrivate === true;
  const dispatcher = allowPrivate
    ? (privateAgent ??= new Agent({ connect: { timeout: 10_000 } }))
    : (publicAgent ??= publicOnlyAgent());
  const gate = gateFor(o.baseUrl, o.concurrency);
  const totals = { calls: 0, promptTokens: 0, completionTokens: 0 };
  let jsonModeSupported = true;

  const scrub = (s: string) => (apiKey ? s.split(apiKey).join('***') : s);

  // The package's fetch: undici with our dispatcher; the body is read here under the cap and the timeout.
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (!apiKey) headers.delete('authorization');
    const res = await undiciFetch(
      input as string,
      {
        ...(init as object),
        headers,
        dispatcher,
        redirect: 'follow',
      } as unknown as Parameters<typeof undiciFetch>[1],
    );
    const len = Number(res.headers.get('content-length'));
    if (Number.isFinite(len) && len > o.maxResponseBytes) {
      await res.body?.cancel().catch(() => {});
      throw new TooLargeError(o.maxResponseBytes);
    }
    const bytes = await readCapped(res.body as ReadableStream<Uint8Array> | null, o.maxResponseBytes);
    const noBody = res.status === 204 || res.status === 205 || res.status === 304;
    return new Response(noBody ? null : (bytes as unknown as ArrayBuffer), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers as unknown as Headers,
    });
  };

  const openai = new OpenAI({
    baseURL: o.baseUrl,
    apiKey: apiKey ?? 'unused',
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: CLIENT_LIMITS.timeoutMs,
    fetch: fetchImpl,
  });

  /** One HTTP attempt, mapped to a ChatResult or an LlmError. */
  async function attempt(req: ChatRequest, json: boolean): Promise<{ content: string; p: number; c: number }> {
    const timer = new AbortController();
    const t = setTimeout(() => timer.abort(new LlmError('timeout', `no answer within ${o.timeoutMs} ms`)), o.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timer.signal]) : timer.signal;
    totals.calls += 1;
    try {
      const body: Record<string, unknown> = { model: opts.model, messages: req.messages };
      if (req.temperature !== undefined) body.temperature = req.temperature;
      if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
      if (json) body.response_format = { type: 'json_object' };
      const completion = (await openai.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        { signal },
      )) as unknown;
      const choice = (completion as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0];
      const content = choice?.message?.content;
      if (typeof content !== 'string')
        throw new LlmError('malformed', 'the answer is not a chat completion with text content');
      const usage = (completion as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } }).usage;
      const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : 0);
      return { content, p: n(usage?.prompt_tokens), c: n(usage?.completion_tokens) };
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason;
      throw toLlmError(err, timer.signal);
    } finally {
      clearTimeout(t);
    }
  }

  function toLlmError(err: unknown, timerSignal: AbortSignal): LlmError {
    if (err instanceof LlmError) return err;
    if (timerSignal.aborted) return timerSignal.reason as LlmError;
    for (const e of causes(err)) {
      if (e instanceof TooLargeError) return new LlmError('too_large', e.message);
      if (e instanceof AddressRefusedError || (e as { code?: string })?.code === REFUSED_CODE)
        return new LlmError('refused', (e as Error).message);
    }
    if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
      return new LlmError(
        'http',
        scrub(`HTTP ${err.status}: ${err.message}`).slice(0, 500),
        err.status,
        retryAfterMs(err.headers),
      );
    }
    if (err instanceof SyntaxError) return new LlmError('malformed', 'the answer is not valid JSON');
    const inner = causes(err).at(-1) as Error | undefined;
    return new LlmError('network', scrub(`network error: ${inner?.message ?? String(err)}`).slice(0, 500));
  }

  return {
    model: opts.model,
    usage: () => ({ ...totals }),
    async chat(req: ChatRequest): Promise<ChatResult> {
      const started = performance.now();
      let tries = 0;
      for (;;) {
        await acquire(gate, req.signal);
        let r: { content: string; p: number; c: number } | undefined;
        let error: LlmError | undefined;
        try {
          const json = req.json === true && jsonModeSupported;
          try {
            r = await attempt(req, json);
          } catch (err) {
            if (json && err instanceof LlmError && (err.status === 400 || err.status === 422)) {
              jsonModeSupported = false;
              r = await attempt(req, false);
            } else throw err;
          }
        } catch (err) {
          if (!(err instanceof LlmError)) throw err;
          error = err;
        } finally {
          release(gate);
        }
        if (r) {
          totals.promptTokens += r.p;
          totals.completionTokens += r.c;
          return {
            content: r.content,
            usage: { promptTokens: r.p, completionTokens: r.c },
            ms: Math.round(performance.now() - started),
          };
        }
        const e = error!;
        const retryable =
          e.kind === 'timeout' ||
          e.kind === 'network' ||
          e.kind === 'malformed' ||
          (e.kind === 'http' && RETRY_STATUS(e.status!));
        if (!retryable || tries >= o.retries) throw e;
        const asked = e.retryAfterMs;
        if (asked !== undefined && asked > CLIENT_DEFAULTS.maxRetryAfterMs) throw e;
        const backoff = Math.min(
          CLIENT_DEFAULTS.backoffMaxMs,
          CLIENT_DEFAULTS.backoffBaseMs * 2 ** tries * (0.5 + Math.random() / 2),
        );
        tries += 1;
        await sleep(asked ?? backoff, req.signal);
      }
    },
  };
}
