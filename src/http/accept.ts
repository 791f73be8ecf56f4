/** The one Accept-header parser (RFC 9110 §12.5.1): media ranges with their q-values, lower-cased. */
export interface AcceptRange {
  range: string;
  q: number;
}

/** The ranges of an Accept header in order; a missing q is 1, an unparsable one 0. */
export function parseAccept(accept: string): AcceptRange[] {
  const out: AcceptRange[] = [];
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!range) continue;
    const qp = params.find((p) => p.startsWith('q='));
    const q = qp ? Number(qp.slice(2)) : 1;
    out.push({ range, q: Number.isFinite(q) ? q : 0 });
  }
  return out;
}

/** q-value of exactly this media type as listed (-1 when it is not listed; wildcards do not count). */
export function exactQuality(accept: string, type: string): number {
  let q = -1;
  for (const r of parseAccept(accept)) if (r.range === type) q = r.q;
  return q;
}

/** q-value of a media type by the most specific range that matches it (exact, then type/*, then *\/*); 0 if none. */
export function quality(accept: string, type: string): number {
  let best = 0;
  let q = 0;
  for (const r of parseAccept(accept)) {
    const spec = r.range === type ? 3 : r.range === `${type.split('/')[0]}/*` ? 2 : r.range === '*/*' ? 1 : 0;
    if (spec <= best) continue;
    best = spec;
    q = r.q;
  }
  return q;
}
