/*
 * svc.js — the svc client script. Plain JavaScript, no dependencies, no build step; runs in browsers, Node 18+,
 * Deno, Bun and web/edge workers (everything that touches window or document is guarded).
 *
 * In a page:
 *   <script defer src="https://svc.example/svc.js"></script>
 *   <div data-svc data-svc-prompt="Is my plan good?">What a brilliant plan! …</div>
 * On load every element carrying data-svc is scored: its text is the response, data-svc-prompt the prompt.
 * A badge is inserted below it and a CustomEvent "svc:scored" (detail: the honesty report) is dispatched
 * on the element; on failure "svc:error" (detail: {error}) is dispatched instead. The badge shows the worse of the
 * two indices: the sycophancy verdict (honest, mixed, sycophantic) and the reply's PAI risk (low, medium, high)
 * rank 0, 1, 2, and the badge takes the colour (green, yellow, red) and the lead text of the worse one, so a
 * companion reply with an honest verdict but a high PAI risk gets a red badge. Each element is scored
 * once (data-svc-state: pending, scored or error); call Svc.scan() again for content added later.
 *
 * Programmatic:  Svc.check({prompt, response}).then((report) => …)
 * Base URL: the origin the script was loaded from; override with data-svc-base on the script tag,
 * Svc.configure({baseUrl}) or, outside a page, globalThis.SVC_BASE_URL.
 */
((root) => {
  var LIMITS = { prompt: 10000, response: 50000 }; // code points, as the server counts them
  var COLOURS = ['#3c9a1f', '#b08a00', '#d03b2c']; // by rank: green, yellow, red
  var VERDICT_RANK = { honest: 0, mixed: 1, sycophantic: 2 };
  var RISK_RANK = { low: 0, medium: 1, high: 2 };
  var RATING = ['green', 'yellow', 'red'];
  var doc = typeof document !== 'undefined' ? document : null;
  var script = doc?.currentScript ? doc.currentScript : null;

  function originOf(url) {
    try {
      return new URL(url).origin;
    } catch {
      return undefined;
    }
  }

  var baseUrl =
    script?.getAttribute('data-svc-base') ||
    (script?.src && originOf(script.src)) ||
    root.SVC_BASE_URL ||
    (root.location?.origin && root.location.origin !== 'null' ? root.location.origin : undefined);

  /** Cut a string to at most n code points (never splitting a surrogate pair). */
  function clip(s, n) {
    s = String(s == null ? '' : s);
    if (s.length <= n) return s;
    return Array.from(s).slice(0, n).join('');
  }

  function configure(options) {
    if (options?.baseUrl) baseUrl = String(options.baseUrl).replace(/\/+$/, '');
    return { baseUrl: baseUrl };
  }

  /** POST {prompt, response} to the honesty endpoint; resolves to the honesty report, rejects with an Error. */
  function check(input) {
    if (!baseUrl) return Promise.reject(new Error('svc: no base URL; call Svc.configure({baseUrl})'));
    if (typeof fetch !== 'function') return Promise.reject(new Error('svc: fetch is not available'));
    var body = JSON.stringify({
      prompt: clip(input?.prompt, LIMITS.prompt),
      response: clip(input?.response, LIMITS.response),
    });
    return fetch(`${String(baseUrl).replace(/\/+$/, '')}/api/honesty`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body,
    }).then((res) =>
      res
        .json()
        .catch(() => ({}))
        .then((data) => {
          if (!res.ok) throw new Error(`svc: ${res.status} ${data?.error ? data.error : 'request failed'}`);
          return data;
        }),
    );
  }

  /**
   * The badge's rating: the worse of the verdict and the PAI risk (a report without pai, from an older server,
   * is rated by its verdict alone). Returns {rank, text}; rank 0-2, or -1 when neither value is known.
   */
  function rate(report) {
    var score = Number(report.overall_sycophancy);
    var v = Object.hasOwn(VERDICT_RANK, report.verdict) ? VERDICT_RANK[report.verdict] : -1;
    var syco = `sycophancy ${Number.isFinite(score) ? score.toFixed(2) : '?'} · ${String(report.verdict)}`;
    var pai = report.pai && typeof report.pai === 'object' ? report.pai : null;
    var r = pai && Object.hasOwn(RISK_RANK, pai.risk) ? RISK_RANK[pai.risk] : -1;
    if (r < 0) return { rank: v, text: syco };
    var composite = Number(pai.composite);
    var para = `PAI ${Number.isFinite(composite) ? composite.toFixed(2) : '?'} · ${String(pai.risk)}`;
    // the worse index leads; on a tie the sycophancy verdict does
    return r > v ? { rank: r, text: `${para} | ${syco}` } : { rank: v, text: `${syco} | ${para}` };
  }

  function makeBadge(report) {
    var rating = rate(report);
    var badge = doc.createElement('div');
    badge.className = 'svc-badge';
    badge.setAttribute('role', 'status');
    badge.setAttribute('data-svc-verdict', String(report.verdict));
    if (report.pai && report.pai.risk !== undefined) badge.setAttribute('data-svc-pai-risk', String(report.pai.risk));
    badge.setAttribute('data-svc-rating', rating.rank >= 0 ? RATING[rating.rank] : 'unknown');
    badge.title = String(report.one_line || '');
    badge.style.cssText =
      'display:inline-block;margin:4px 0;padding:2px 8px;border-radius:4px;font:12px/1.6 system-ui,sans-serif;color:#fff;background:' +
      (rating.rank >= 0 ? COLOURS[rating.rank] : '#6b6b6b');
    // textContent only: nothing from the server is ever parsed as HTML
    badge.textContent = rating.text;
    return badge;
  }

  function emit(el, name, detail) {
    if (typeof CustomEvent !== 'function') return;
    el.dispatchEvent(new CustomEvent(name, { detail: detail, bubbles: true }));
  }

  function scoreElement(el) {
    el.setAttribute('data-svc-state', 'pending');
    return check({ prompt: el.getAttribute('data-svc-prompt') || '', response: el.textContent || '' }).then(
      (report) => {
        el.setAttribute('data-svc-state', 'scored');
        var old = el.nextElementSibling;
        if (old && old.className === 'svc-badge') old.remove();
        el.insertAdjacentElement('afterend', makeBadge(report));
        emit(el, 'svc:scored', report);
        return report;
      },
      (err) => {
        el.setAttribute('data-svc-state', 'error');
        emit(el, 'svc:error', { error: String(err?.message ? err.message : err) });
        return null;
      },
    );
  }

  /** Score every element with data-svc under root (default: the document) not scored yet. */
  function scan(scope) {
    if (!doc) return Promise.resolve([]);
    var els = (scope || doc).querySelectorAll('[data-svc]:not([data-svc-state])');
    return Promise.all(Array.prototype.map.call(els, scoreElement));
  }

  var Svc = { check: check, scan: scan, configure: configure, rate: rate, version: '2' };
  root.Svc = Svc;
  if (typeof module === 'object' && module && module.exports) module.exports = Svc;

  if (doc && typeof doc.querySelectorAll === 'function') {
    if (doc.readyState === 'loading')
      doc.addEventListener('DOMContentLoaded', () => {
        scan();
      });
    else scan();
  }
})(typeof globalThis !== 'undefined' ? globalThis : typeof self !== 'undefined' ? self : this);
