/**
 * Small inline SVG charts for the pages. Each returns markup with a text alternative (role="img" and an
 * aria-label, or aria-hidden when the same numbers are printed beside it). Styling comes from site.css classes,
 * never from inline styles (the CSP allows none). Only numbers go into the SVG; labels are escaped.
 */
import { escapeHtml, fmt } from './html.ts';

const r1 = (x: number): string => (Math.round(x * 10) / 10).toString();

/** A trend line of a model's history (oldest first), sized for a table cell. */
export function sparkline(values: readonly number[], label: string, w = 72, h = 22): string {
  const alt = escapeHtml(
    values.length < 2
      ? `${label}: one dataset version so far (${fmt(values[0])})`
      : `${label} over ${values.length} dataset versions: ${values.map((v) => fmt(v)).join(', ')}`,
  );
  const pts = points(values, w, h, 3);
  const path = pts.length > 1 ? `<path d="M${pts.map(([x, y]) => `${r1(x)} ${r1(y)}`).join('L')}"/>` : '';
  const last = pts[pts.length - 1];
  const dot = last ? `<circle cx="${r1(last[0])}" cy="${r1(last[1])}" r="2.5"/>` : '';
  return `<svg class="spark" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${alt}">${path}${dot}</svg>`;
}

function points(values: readonly number[], w: number, h: number, pad: number): [number, number][] {
  if (values.length === 0) return [];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const step = values.length > 1 ? (w - 2 * pad) / (values.length - 1) : 0;
  return values.map((v, i) => [
    values.length > 1 ? pad + i * step : w / 2,
    hi === lo ? h / 2 : pad + (1 - (v - lo) / span) * (h - 2 * pad),
  ]);
}

/** A horizontal 0-`max` bar; aria-hidden because the value is printed beside it. */
export function bar(value: number, max = 10, w = 128, h = 12): string {
  const fill = Math.max(0, Math.min(1, value / max)) * w;
  return `<svg class="bar" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect class="bg" width="${w}" height="${h}" rx="3"/><rect class="fg" width="${r1(fill)}" height="${h}" rx="3"/></svg>`;
}

/** A line chart of a history across dataset versions, with axis labels; the caller prints the values as a table. */
export function historyChart(values: readonly number[], label: string, range: [number, number]): string {
  const w = 320;
  const h = 120;
  const left = 34;
  const bottom = 18;
  const [lo, hi] = range;
  const y = (v: number) => 6 + (1 - (v - lo) / (hi - lo || 1)) * (h - bottom - 6);
  const step = values.length > 1 ? (w - left - 10) / (values.length - 1) : 0;
  const x = (i: number) => (values.length > 1 ? left + i * step : left + (w - left) / 2);
  const line =
    values.length > 1 ? `<path class="line" d="M${values.map((v, i) => `${r1(x(i))} ${r1(y(v))}`).join('L')}"/>` : '';
  const dots = values.map((v, i) => `<circle cx="${r1(x(i))}" cy="${r1(y(v))}" r="3"/>`).join('');
  const grid = [lo, (lo + hi) / 2, hi]
    .map(
      (v) =>
        `<line x1="${left}" x2="${w}" y1="${r1(y(v))}" y2="${r1(y(v))}"/><text x="0" y="${r1(y(v) + 4)}">${r1(v)}</text>`,
    )
    .join('');
  const first = `<text x="${left}" y="${h - 4}">v1</text>`;
  const lastLabel = values.length > 1 ? `<text x="${w - 24}" y="${h - 4}">v${values.length}</text>` : '';
  const alt = escapeHtml(
    `${label} across ${values.length} dataset version${values.length === 1 ? '' : 's'}, oldest first: ${values.map((v) => fmt(v)).join(', ')}`,
  );
  return `<svg class="chart" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${alt}">${grid}${line}${dots}${first}${lastLabel}</svg>`;
}

export interface Distribution {
  mean: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
}

/** A box plot (min, quartiles, max, and the mean as a dot) on a 0-`max` axis. */
export function boxPlot(d: Distribution, label: string, max = 10, w = 180, h = 24): string {
  const pad = 4;
  const x = (v: number) => pad + (Math.max(0, Math.min(max, v)) / max) * (w - 2 * pad);
  const mid = h / 2;
  const alt = escapeHtml(
    `${label}: min ${fmt(d.min)}, lower quartile ${fmt(d.q1)}, median ${fmt(d.median)}, upper quartile ${fmt(d.q3)}, max ${fmt(d.max)}, mean ${fmt(d.mean)} on a 0 to ${max} scale`,
  );
  return `<svg class="box" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${alt}"><line class="axis" x1="${pad}" x2="${w - pad}" y1="${h - 2}" y2="${h - 2}"/><line x1="${r1(x(d.min))}" x2="${r1(x(d.q1))}" y1="${mid}" y2="${mid}"/><line x1="${r1(x(d.q3))}" x2="${r1(x(d.max))}" y1="${mid}" y2="${mid}"/><rect x="${r1(x(d.q1))}" y="${mid - 6}" width="${r1(Math.max(1, x(d.q3) - x(d.q1)))}" height="12"/><line x1="${r1(x(d.median))}" x2="${r1(x(d.median))}" y1="${mid - 6}" y2="${mid + 6}"/><circle class="mean" cx="${r1(x(d.mean))}" cy="${mid}" r="2.5"/></svg>`;
}
