/**
 * Text rules shared by the HTTP routes, the CLI and the ingest pipeline: the contract's size limits, how
 * lengths are counted (Unicode code points, docs/decisions.md) and HTML escaping for every page and email.
 */

/** Contract limits, in code points: prompt, response, and every other string field of submit, waitlist and keys. */
export const TEXT_LIMITS = { prompt: 10000, response: 50000, field: 500 } as const;

/** Length in Unicode code points (an emoji counts 1, as the contract's limits do). */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escape a value for HTML text or a quoted attribute. Control characters HTML does not allow (C0 other than tab,
 * LF, FF and CR; DEL; C1) become U+FFFD, one code unit for one, so offsets into the raw text still hold.
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(
    /[&<>"'\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/g,
    (c) => HTML_ESCAPES[c] ?? '\ufffd',
  );
}

/**
 * FNV-1a, 32-bit, over a string's UTF-16 code units: a fast, deterministic, non-cryptographic hash. The engine
 * version's data hash and the calibration's held-out split both use this one.
 * @example fnv1a('a') // 0xe40c292c
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** fnv1a as 8 lowercase hex digits. */
export const fnv1aHex = (text: string): string => fnv1a(text).toString(16).padStart(8, '0');
