/**
 * The operator's own model (SVC_LLM_URL and friends) as a chat client, for the routes that use it (/api/honesty's
 * rewrite, /api/council's members). Private and loopback addresses are allowed: the URL is set by the operator, not
 * a stranger. The client module (and the openai package) is loaded only when a model is configured, because it
 * costs start-up time otherwise.
 */
import type { LlmConfig } from '../config.ts';
import type { ChatClient } from './client.ts';

/** null when no model is configured; `retries`: how often the client itself retries a failed call. */
export async function operatorModel(llm: LlmConfig | undefined, retries: number): Promise<ChatClient | null> {
  if (!llm) return null;
  const { createChatClient } = await import('./client.ts');
  return createChatClient({
    baseUrl: llm.baseUrl,
    model: llm.model,
    apiKey: llm.apiKey,
    timeoutMs: llm.timeoutMs,
    concurrency: llm.concurrency,
    retries,
    allowPrivate: true,
  });
}
