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

  // ---- sortable tables: every th[data-sort] becomes a button; aria-sort tells which column and direction
  function sortTable(table, col, dir) {
    const ths = $$('thead th', table);
    const index = ths.findIndex((th) => th.dataset.sort === col);
    if (index < 0) return;
    const numeric = ths[index].dataset.type === 'num';
    const body = table.tBodies[0];
    const rows = [...body.rows];
    const key = (tr) => {
      const v = tr.cells[index]?.dataset.v ?? '';
      return numeric ? Number(v) : v;
    };
    rows.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      const d = numeric ? x - y : String(x).localeCompare(String(y));
      return dir === 'ascending' ? d : -d;
    });
    for (const r of rows) body.appendChild(r);
    for (const th of ths) th.removeAttribute('aria-sort');
    ths[index].setAttribute('aria-sort', dir);
    const pick = $(`select.sort-pick[data-table="${table.id}"]`);
    if (pick) pick.value = `${col}:${dir}`;
  }

  for (const table of $$('table[data-sortable]')) {
    const ths = $$('thead th[data-sort]', table);
    for (const th of ths) {
      const b = el('button', { type: 'button' });
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener('click', () => {
        const next = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        sortTable(table, th.dataset.sort, next);
      });
    }
    // narrow screens hide the header row, so a select offers the same sorts
    const bar = el('div', { class: 'sort-bar' });
    const id = `sort-${table.id}`;
    bar.appendChild(el('label', { for: id }, 'Sort by'));
    const sel = el('select', { id, class: 'sort-pick', 'data-table': table.id });
    for (const th of ths) {
      const name = th.textContent.trim();
      sel.appendChild(el('option', { value: `${th.dataset.sort}:ascending` }, `${name} ↑`));
      sel.appendChild(el('option', { value: `${th.dataset.sort}:descending` }, `${name} ↓`));
    }
    sel.value = `${ths[0]?.dataset.sort}:ascending`;
    sel.addEventListener('change', () => {
      const [col, dir] = sel.value.split(':');
      sortTable(table, col, dir);
    });
    bar.appendChild(sel);
    table.closest('.table-wrap')?.before(bar);
  }

  // ---- leaderboard filters: applied in place; the form still works as a GET without JavaScript
  const filters = $('#filters');
  if (filters) {
    const apply = () => {
      const want = Object.fromEntries($$('select', filters).map((s) => [s.name, s.value]));
      for (const table of $$('table[data-sortable]')) {
        let shown = 0;
        for (const tr of table.tBodies[0].rows) {
          const ok = Object.entries(want).every(([k, v]) => !v || tr.dataset[k] === v);
          tr.hidden = !ok;
          if (ok) shown++;
        }
        const count = $(`[data-count="${table.id.replace('table-', '')}"]`);
        if (count) count.textContent = `${shown} of ${table.tBodies[0].rows.length} models shown.`;
      }
      const params = new URLSearchParams(Object.entries(want).filter(([, v]) => v));
      history.replaceState(null, '', params.size ? `/?${params}` : '/');
      const status = $('#filter-status');
      if (status) {
        const active = Object.values(want).filter(Boolean);
        status.textContent = active.length ? `Filtered: ${active.join(', ')}` : 'Showing all models';
      }
    };
    filters.addEventListener('change', apply);
    filters.addEventListener('submit', (ev) => {
      ev.preventDefault();
      apply();
    });
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
})();
