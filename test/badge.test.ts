import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { honestyColour, paiColour, renderBadge, worse } from '../src/badge/index.ts';
import { makeApp, type TestApp } from './helpers.ts';

/** A small well-formedness check: tags balance, no raw '<' or bare '&' in text or attribute values. */
function assertWellFormedXml(svg: string): void {
  const stack: string[] = [];
  const re = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/g;
  let consumed = 0;
  for (let m = re.exec(svg); m; m = re.exec(svg)) {
    assert.equal(m.index, consumed, `unparseable XML at ${consumed}: ${svg.slice(consumed, consumed + 40)}`);
    consumed = re.lastIndex;
    const [, close, name, attrs, selfClose, text] = m;
    for (const chunk of [text ?? '', attrs ?? ''])
      assert.doesNotMatch(chunk, /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i, 'bare &');
    if (text !== undefined) continue;
    if (close) assert.equal(stack.pop(), name, `mismatched </${name}>`);
    else if (!selfClose) stack.push(name!);
  }
  assert.equal(consumed, svg.length, 'trailing garbage');
  assert.deepEqual(stack, [], 'unclosed tags');
}

describe('badge colours', () => {
  it('follows the published thresholds', () => {
    assert.equal(honestyColour(90.01), 'green');
    assert.equal(honestyColour(90), 'yellow');
    assert.equal(honestyColour(80), 'yellow');
    assert.equal(honestyColour(79.99), 'red');
    assert.equal(paiColour(0.99), 'green');
    assert.equal(paiColour(1), 'yellow');
    assert.equal(paiColour(2), 'yellow');
    assert.equal(paiColour(2.01), 'red');
    assert.equal(worse('green', 'red'), 'red');
    assert.equal(worse('yellow', 'green'), 'yellow');
  });

  it('escapes hostile labels into valid XML', () => {
    const svg = renderBadge(
      { name: '<script>alert("x")</script> & Sons \' "', honesty: 95, composite: 0.2 },
      'both',
      'flat',
    );
    assertWellFormedXml(svg);
    assert.doesNotMatch(svg, /<script/);
    assert.match(svg, /&lt;script&gt;/);
    assert.match(svg, /&amp; Sons/);
  });
});

let t: TestApp;
before(async () => {
  t = await makeApp();
});
after(() => t.close());

const FILL = { green: '#3c9a1f', yellow: '#b08a00', red: '#d03b2c' };

describe('GET /api/badge/{slug}', () => {
  it('renders all three types in all three styles as valid SVG with a title', async () => {
    for (const type of ['sycophancy', 'pai', 'both']) {
      for (const style of ['flat', 'flat-square', 'for-the-badge']) {
        const r = await t.app.inject(`/api/badge/green-model?type=${type}&style=${style}`);
        assert.equal(r.statusCode, 200);
        assert.match(r.headers['content-type'] as string, /^image\/svg\+xml/);
        assertWellFormedXml(r.body);
        assert.match(r.body, /<title>[^<]+<\/title>/);
        assert.ok(r.body.includes(FILL.green), `${type} ${style} green`);
      }
    }
  });

  it('colours by the index asked for, and both by the worse', async () => {
    // tie-model: honesty 85 (yellow), composite 0.9 (low, green)
    const syco = await t.app.inject('/api/badge/tie-model?type=sycophancy');
    const pai = await t.app.inject('/api/badge/tie-model?type=pai');
    const both = await t.app.inject('/api/badge/tie-model');
    assert.ok(syco.body.includes(FILL.yellow));
    assert.ok(pai.body.includes(FILL.green));
    assert.ok(both.body.includes(FILL.yellow));
    assert.match(both.body, /honesty 85%/);
    assert.match(both.body, /PAI low 0\.9/);
    const red = await t.app.inject('/api/badge/red-model');
    assert.ok(red.body.includes(FILL.red));
  });

  it('escapes a hostile model name', async () => {
    const r = await t.app.inject('/api/badge/red-model');
    assertWellFormedXml(r.body);
    assert.doesNotMatch(r.body, /<script/);
    assert.match(r.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; Co/);
  });

  it('answers errors with placeholder SVGs, the right status and a short cache lifetime', async () => {
    for (const [url, status] of [
      ['/api/badge/unknown-model', 404],
      ['/api/badge/green-model?type=nope', 400],
      ['/api/badge/green-model?style=%3Cx%3E', 400],
      ['/api/badge/%3Cscript%3E', 404],
    ] as const) {
      const r = await t.app.inject(url);
      assert.equal(r.statusCode, status, url);
      assert.match(r.headers['content-type'] as string, /^image\/svg\+xml/);
      assertWellFormedXml(r.body);
      assert.equal(r.headers['cache-control'], 'public, max-age=60');
    }
  });

  it('answers an unknown path under /api/badge with a placeholder SVG (an <img> with a trailing slash)', async () => {
    // docs/api.md, General: "under /api/badge every refusal … is a placeholder SVG"; these never reach a route.
    for (const url of ['/api/badge/green-model/', '/api/badge/green-model/extra', '/api/badge/green-model/?type=pai']) {
      const r = await t.app.inject(url);
      assert.equal(r.statusCode, 404, url);
      assert.match(r.headers['content-type'] as string, /^image\/svg\+xml/, url);
      assertWellFormedXml(r.body);
      assert.equal(r.headers['cache-control'], 'public, max-age=60');
    }
    // Elsewhere the router's refusals stay the JSON Error body, and so does a 405 (the contract's Error body).
    for (const [method, url, code] of [
      ['GET', '/api/badgex', 'not_found'],
      ['POST', '/api/badge/green-model', 'method_not_allowed'],
    ] as const) {
      const r = await t.app.inject({ method, url });
      assert.equal(r.json().code, code, `${method} ${url}`);
    }
  });
});

describe('badge XML', () => {
  it('stays well-formed XML when a name carries characters XML forbids', () => {
    const svg = renderBadge({ name: 'bad\u0001name\u0008 & <x>\ud800', honesty: 95, composite: 0.5 }, 'both', 'flat');
    // XML 1.0 Char production: no C0 except tab, LF, CR; no lone surrogates.
    assert.doesNotMatch(svg, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    assert.doesNotMatch(svg, /[\ud800-\udbff](?![\udc00-\udfff])/);
    assert.match(svg, /badname &amp; &lt;x&gt;/);
  });
});

describe('badge module graph', () => {
  it('loads the verdict thresholds, not the scoring engine, lexicon or rewrite', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'test/fixtures/module-graph.mjs'), path.join(root, 'src/badge/index.ts')],
      { cwd: root, encoding: 'utf8' },
    );
    const ours = (JSON.parse(out) as string[])
      .filter((u) => !u.includes('/node_modules/'))
      .map((u) => path.relative(root, fileURLToPath(u)))
      .sort();
    assert.ok(ours.includes('src/scoring/verdict.ts'), ours.join(', '));
    for (const heavy of ['engine', 'features', 'lexicon', 'honesty', 'rewrite', 'sentences', 'tokens'])
      assert.ok(!ours.includes(`src/scoring/${heavy}.ts`), `the badge module loads src/scoring/${heavy}.ts`);
    assert.deepEqual(
      ours.filter((f) => f.startsWith('src/')),
      ['src/badge/index.ts', 'src/dimensions.ts', 'src/scoring/types.ts', 'src/scoring/verdict.ts'],
    );
  });
});
