/** Shared text helpers (src/text.ts): code-point lengths, HTML escaping, the one FNV-1a. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codePoints, escapeHtml, fnv1a, fnv1aHex } from '../src/text.ts';

describe('src/text.ts', () => {
  it('FNV-1a 32-bit matches the reference vectors', () => {
    assert.equal(fnv1a(''), 0x811c9dc5);
    assert.equal(fnv1a('a'), 0xe40c292c);
    assert.equal(fnv1a('foobar'), 0xbf9cf968);
    assert.equal(fnv1aHex('a'), 'e40c292c');
    assert.equal(fnv1aHex('').length, 8);
  });

  it('counts code points and escapes HTML', () => {
    assert.equal(codePoints('a😀b'), 3);
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('never writes a control character into HTML (a NUL from /models/a%00b reached the 404 page)', () => {
    // HTML forbids C0 controls other than tab, LF, FF, CR, and DEL/C1; each becomes U+FFFD, one code unit for one,
    // so UTF-16 offsets computed on the raw text still hold.
    const raw = 'a\u0000b\u0007c\u001bd\u007fe\u0085f\tg\nh\ri\fj';
    const out = escapeHtml(raw);
    assert.equal(out, 'a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\tg\nh\ri\fj');
    assert.equal(out.length, raw.length);
  });
});
