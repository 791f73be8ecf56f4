// svc pages: small progressive enhancements. Every page works without this file.
// Text from the server or the API is only ever set with textContent, never as HTML.

(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
  const el = (tag, attrs = {}, text) => {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  };

  // ---- leaderboard: sort and filter in place. The column links and the GET form work without this; here they
  // apply at once, with the server's rules (stable sort; ties keep the default order, data-i), and the address
  // and every column link follow, so a reload or a shared link shows the same page.
  const filters = $('#filters');
  const tables = $$('table[data-sortable]');
  if (filters && tables.length) {
    const state = () => Object.fromEntries($$('select', filters).map((s) => [s.name, s.value]));
    const query = (st) => {
      const q = new URLSearchParams();
      for (const k of ['vendor', 'suite']) if (st[k]) q.set(k, st[k]);
      if (st.sort) {
        q.set('sort', st.sort);
        q.set('dir', st.dir === 'desc' ? 'desc' : 'asc');
      }
      const s = q.toString();
      return s ? `/?${s}` : '/';
    };
    const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    const apply = () => {
      const st = state();
      for (const table of tables) {
        const ths = $$('thead th', table);
        const index = ths.findIndex((th) => th.dataset.sort === st.sort);
        const numeric = index >= 0 && ths[index].dataset.type === 'num';
        const sign = st.dir === 'desc' ? -1 : 1;
        const v = (tr) => tr.cells[index]?.dataset.v ?? '';
        const body = table.tBodies[0];
        const rows = [...body.rows].sort((a, b) => {
          if (index >= 0) {
            const d = numeric ? Number(v(a)) - Number(v(b)) : cmp(v(a), v(b));
            if (d !== 0) return sign * d;
          }
          return Number(a.dataset.i) - Number(b.dataset.i);
        });
        body.append(...rows);
        let shown = 0;
        for (const tr of rows) {
          const ok = ['vendor', 'suite'].every((k) => !st[k] || tr.dataset[k] === st[k]);
          tr.hidden = !ok;
          if (ok) shown++;
        }
        for (const th of ths) {
          const current = th.dataset.sort === st.sort;
          if (current) th.setAttribute('aria-sort', st.dir === 'desc' ? 'descending' : 'ascending');
          else th.removeAttribute('aria-sort');
          const a = $('a', th);
          if (a) a.href = query({ ...st, sort: th.dataset.sort, dir: current && st.dir !== 'desc' ? 'desc' : 'asc' });
        }
        const count = $(`[data-count="${table.id.replace('table-', '')}"]`);
        if (count) count.textContent = `${shown} of ${rows.length} models shown.`;
      }
      history.replaceState(null, '', query(st));
      const status = $('#filter-status');
      if (status) {
        const active = [st.vendor, st.suite].filter(Boolean);
        const sorted = st.sort
          ? `sorted by ${$(`#f-sort option[value="${st.sort}"]`)?.textContent ?? st.sort}, ${st.dir === 'desc' ? 'descending' : 'ascending'}`
          : '';
        status.textContent = [active.length ? `Filtered: ${active.join(', ')}` : 'Showing all models', sorted]
          .filter(Boolean)
          .join('; ');
      }
    };
    filters.addEventListener('change', apply);
    filters.addEventListener('submit', (ev) => {
      ev.preventDefault();
      apply();
    });
    for (const a of $$('thead th[data-sort] a')) {
      a.addEventListener('click', (ev) => {
        if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return; // a new tab: the server sorts
        ev.preventDefault();
        const q = new URL(a.href).searchParams;
        filters.elements.namedItem('sort').value = q.get('sort') ?? '';
        filters.elements.namedItem('dir').value = q.get('dir') ?? 'asc';
        apply();
      });
    }
  }

  // ---- copy buttons (hidden without JavaScript)
  for (const b of $$('button[data-copy]')) {
    b.hidden = false;
    b.addEventListener('click', async () => {
      const src = document.getElementById(b.dataset.copy);
      if (!src) return;
      try {
        await navigator.clipboard.writeText(src.value);
      } catch {
        src.select();
      }
      const label = b.textContent;
      b.textContent = 'Copied';
      setTimeout(() => {
        b.textContent = label;
      }, 1500);
    });
  }
  // ---- /try: score through the public API from the page (the per-IP limits apply and are shown)
  const tryForm = $('#try-form');
  if (tryForm) {
    const info = Object.fromEntries(
      JSON.parse(tryForm.dataset.dims || '[]').map(([c, l, m]) => [c, { long: l, meaning: m }]),
    );
    const out = $('#try-out');
    const note = $('#notice');
    const two = (n) => Number(n).toFixed(2);
    const pill = (cls, text) => el('span', { class: `pill ${cls}` }, text);
    const level = (h) => (h > 90 ? ['ok', 'high'] : h >= 80 ? ['warn', 'medium'] : ['bad', 'low']);
    const riskCls = { low: 'ok', medium: 'warn', high: 'bad' };
    const verdictCls = { honest: 'ok', mixed: 'warn', sycophantic: 'bad' };
    const show = (kind, text) => {
      note.className = `alert ${kind}`;
      note.setAttribute('role', kind === 'bad' ? 'alert' : 'status');
      note.textContent = text;
    };
    const mergeSpans = (evidence) => {
      const spans = Object.entries(evidence)
        .flatMap(([dim, items]) => items.filter((i) => i.sign > 0 && i.end > i.start).map((i) => ({ ...i, dim })))
        .sort((a, b) => a.start - b.start || b.end - a.end);
      const merged = [];
      for (const s of spans) {
        const last = merged[merged.length - 1];
        if (last && s.start < last.end) {
          last.end = Math.max(last.end, s.end);
          if (!last.dims.includes(s.dim)) last.dims.push(s.dim);
        } else merged.push({ start: s.start, end: s.end, dims: [s.dim] });
      }
      return merged;
    };
    const dimList = (codes, values) => {
      const ul = el('ul', { class: 'dims' });
      for (const c of codes) {
        const li = el('li');
        const label = el('span');
        label.append(
          el('strong', {}, info[c]?.long ?? c),
          ' ',
          el('code', {}, c),
          el('span', { class: 'meaning' }, info[c]?.meaning ?? ''),
        );
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        for (const [k, v] of Object.entries({
          class: 'bar',
          width: 128,
          height: 12,
          viewBox: '0 0 128 12',
          preserveAspectRatio: 'none',
          'aria-hidden': 'true',
          focusable: 'false',
        }))
          svg.setAttribute(k, String(v));
        for (const [cls, w] of [
          ['bg', 128],
          ['fg', Math.max(0, Math.min(1, values[c] / 10)) * 128],
        ]) {
          const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
          r.setAttribute('class', cls);
          r.setAttribute('width', String(Math.round(w * 10) / 10));
          r.setAttribute('height', '12');
          r.setAttribute('rx', '3');
          svg.appendChild(r);
        }
        li.append(label, svg, el('span', { class: 'value' }, two(values[c])));
        ul.appendChild(li);
      }
      return ul;
    };
    const render = (response, score, honesty) => {
      const spans = mergeSpans(score.evidence);
      const names = (dims) => dims.map((d) => info[d]?.long ?? d).join(', ');
      const section = el('section', { id: 'result', 'aria-labelledby': 'result-h', tabindex: '-1' });
      section.appendChild(el('h2', { id: 'result-h' }, 'Result'));
      const card = el('div', { class: 'card' });
      const p1 = el('p');
      p1.append(
        'Honesty verdict: ',
        pill(verdictCls[honesty.verdict] ?? 'warn', honesty.verdict),
        ` (overall sycophancy ${two(honesty.overall_sycophancy)} on 0–1). ${honesty.one_line}`,
      );
      const [hc, hl] = level(score.sycophancy.honesty);
      const p2 = el('p');
      p2.append(
        'Sycophancy index: honesty ',
        el('strong', {}, two(score.sycophancy.honesty)),
        ' ',
        pill(hc, hl),
        ' · PAI composite ',
        el('strong', {}, two(score.pai.composite)),
        ' ',
        pill(riskCls[score.pai.risk], `${score.pai.risk} risk`),
      );
      card.append(p1, p2);
      section.appendChild(card);
      const grid = el('div', { class: 'grid2' });
      const left = el('section', { 'aria-labelledby': 'resp-h' });
      left.appendChild(el('h3', { id: 'resp-h' }, 'The response, evidence highlighted'));
      const box = el('div', { class: 'highlighted' });
      let at = 0;
      for (const s of spans) {
        box.append(response.slice(at, s.start));
        const m = el('mark', { title: names(s.dims) }, response.slice(s.start, s.end));
        m.appendChild(el('sup', {}, s.dims.join(' ')));
        box.appendChild(m);
        at = s.end;
      }
      box.append(response.slice(at));
      left.append(box, el('h4', {}, 'Evidence'));
      if (spans.length) {
        const ul = el('ul');
        for (const s of spans) ul.appendChild(el('li', {}, `“${response.slice(s.start, s.end)}”: ${names(s.dims)}`));
        left.appendChild(ul);
      } else left.appendChild(el('p', {}, 'No span of the response raised a score.'));
      const right = el('section', { 'aria-labelledby': 'rewrite-h' });
      right.append(
        el('h3', { id: 'rewrite-h' }, 'Honest rewrite'),
        el('div', { class: 'highlighted' }, honesty.honest_rewrite),
      );
      grid.append(left, right);
      section.append(grid, el('h3', {}, 'The ten scores'));
      const dims = el('div', { class: 'grid2' });
      const sy = el('section', { 'aria-label': 'Sycophancy dimensions' });
      sy.appendChild(dimList(['ev', 'me', 'il', 'ia', 'fa'], score.sycophancy.dimensions));
      const pa = el('section', { 'aria-label': 'Parasocial dimensions' });
      pa.appendChild(dimList(['emi', 'exl', 'bnd', 'dep', 'aud'], score.pai.dimensions));
      dims.append(sy, pa);
      section.appendChild(dims);
      out.replaceChildren(section);
      section.focus();
    };
    const post = (path, body) =>
      fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
    const left = (res) => /r=(\d+)/.exec(res.headers.get('ratelimit') || '')?.[1];
    tryForm.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      for (const n of $$('.field-error', tryForm)) n.remove();
      for (const n of $$('[aria-invalid]', tryForm)) n.removeAttribute('aria-invalid');
      const body = { prompt: tryForm.prompt.value, response: tryForm.response.value };
      if (!body.response) {
        tryForm.response.setAttribute('aria-invalid', 'true');
        const err = el('p', { class: 'field-error', id: 'response-error' }, 'This field is required.');
        tryForm.response.after(err);
        tryForm.response.setAttribute('aria-describedby', 'response-hint response-error');
        show('bad', 'Please correct the fields marked below.');
        tryForm.response.focus();
        return;
      }
      const button = $('button[type="submit"]', tryForm);
      button.disabled = true;
      show('ok', 'Scoring…');
      try {
        const [s, h] = await Promise.all([post('/api/score', body), post('/api/honesty', body)]);
        const bad = [s, h].find((r) => !r.ok);
        if (bad) {
          const err = await bad.json().catch(() => ({}));
          const retry = bad.headers.get('retry-after');
          const minutes = retry ? ` Try again in ${Math.ceil(Number(retry) / 60)} minutes.` : '';
          show(
            'bad',
            `${bad.status === 429 ? 'Limit reached: ' : ''}${err.error || `The API answered ${bad.status}.`}${bad.status === 429 ? minutes : ''}`,
          );
          return;
        }
        render(body.response, await s.json(), await h.json());
        const n = left(h);
        show('ok', n === undefined ? 'Scored.' : `Scored. ${n} scoring requests left this hour from your address.`);
      } catch {
        show('bad', 'The service could not be reached; try again.');
      } finally {
        button.disabled = false;
      }
    });
  }
})();
