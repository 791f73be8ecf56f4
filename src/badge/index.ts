/**
 * SVG badges: pure functions over badge-maker, which escapes every text value for XML.
 *
 * Colours (docs/decisions.md): PAI by risk level (low green, medium yellow, high red); honesty > 90 green,
 * 80 to 90 yellow, < 80 red; a `both` badge shows both values and takes the worse colour.
 * Example: renderBadge({name: 'Alpha', honesty: 92.4, composite: 0.8}, 'both', 'flat')
 *   → an SVG reading "Alpha | honesty 92.4% · PAI low 0.8" in green.
 */
import { makeBadge } from 'badge-maker';
import { verdictOf, type Verdict } from '../scoring/verdict.ts';
import { riskOf, round2 } from '../scoring/types.ts';

export const BADGE_TYPES = ['sycophancy', 'pai', 'both'] as const;
export const BADGE_STYLES = ['flat', 'flat-square', 'for-the-badge'] as const;
export type BadgeType = (typeof BADGE_TYPES)[number];
export type BadgeStyle = (typeof BADGE_STYLES)[number];
export type Colour = 'green' | 'yellow' | 'red';

const ORDER: Colour[] = ['green', 'yellow', 'red'];
const HEX: Record<Colour | 'grey', string> = { green: '#3c9a1f', yellow: '#b08a00', red: '#d03b2c', grey: '#6b6b6b' };

/** Honesty 0-100: > 90 green, 80 to 90 yellow, < 80 red. */
export function honestyColour(honesty: number): Colour {
  if (honesty > 90) return 'green';
  if (honesty >= 80) return 'yellow';
  return 'red';
}

/** PAI composite 0-10 via the risk level (contract rule 4). */
export function paiColour(composite: number): Colour {
  const risk = riskOf(composite);
  return risk === 'low' ? 'green' : risk === 'medium' ? 'yellow' : 'red';
}

export function worse(a: Colour, b: Colour): Colour {
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}

export interface BadgeModel {
  name: string;
  /** Absent when the model was not assessed on that index. */
  honesty?: number;
  composite?: number;
}

/** Render a model's badge; an index the model lacks reads "not assessed" in grey. */
export function renderBadge(m: BadgeModel, type: BadgeType, style: BadgeStyle): string {
  const parts: string[] = [];
  const colours: Colour[] = [];
  if (type !== 'pai') {
    if (m.honesty === undefined) parts.push('honesty n/a');
    else {
      parts.push(`honesty ${round2(m.honesty)}%`);
      colours.push(honestyColour(m.honesty));
    }
  }
  if (type !== 'sycophancy') {
    if (m.composite === undefined) parts.push('PAI n/a');
    else {
      parts.push(`PAI ${riskOf(m.composite)} ${round2(m.composite)}`);
      colours.push(paiColour(m.composite));
    }
  }
  const colour = colours.length ? HEX[colours.reduce(worse)] : HEX.grey;
  return makeBadge({ label: xmlText(m.name), message: parts.join(' · '), color: colour, style });
}

/** Characters XML 1.0 does not allow in a document (badge-maker escapes markup, not these): dropped. */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
function xmlText(s: string): string {
  return s.replace(NOT_XML, '');
}

/** The image sent instead of a badge on 400/404/500, so an embedded <img> still shows why. */
export function placeholderBadge(message: string, style: BadgeStyle = 'flat'): string {
  return makeBadge({ label: 'svc', message, color: HEX.grey, style });
}

/** Styles of the parameterless site badge (GET /api/badge, second contract document). */
export const SITE_BADGE_STYLES = ['default', 'compact', 'dark', 'score'] as const;
export type SiteBadgeStyle = (typeof SITE_BADGE_STYLES)[number];

/** Score colours on the honesty report's 0-1 sycophancy scale, by its verdict thresholds (src/scoring/verdict.ts). */
const VERDICT_COLOUR: Record<Verdict, Colour> = { honest: 'green', mixed: 'yellow', sycophantic: 'red' };

/**
 * The site badge: "checked by svc" in three looks, or (style `score`) a sycophancy score s in 0..1 coloured by
 * the honesty verdict (honest < 0.3 green, mixed yellow, sycophantic >= 0.6 red). Text goes through badge-maker,
 * which XML-escapes it.
 * @example renderSiteBadge('score', 0.62) // "sycophancy | 0.62 sycophantic" in red
 */
export function renderSiteBadge(style: SiteBadgeStyle, s?: number): string {
  switch (style) {
    case 'default':
      return makeBadge({ label: 'svc', message: 'honesty checked', color: '#2b6cb0', style: 'flat' });
    case 'compact':
      return makeBadge({ label: 'svc', message: '✓', color: '#2b6cb0', style: 'flat-square' });
    case 'dark':
      return makeBadge({
        label: 'svc',
        message: 'honesty checked',
        labelColor: '#1a1a1a',
        color: '#3a3a3a',
        style: 'flat',
      });
    case 'score': {
      if (s === undefined || !Number.isFinite(s) || s < 0 || s > 1) throw new RangeError('score badge needs s in 0..1');
      const verdict = verdictOf(s);
      return makeBadge({
        label: 'sycophancy',
        message: `${s.toFixed(2)} ${verdict}`,
        color: HEX[VERDICT_COLOUR[verdict]],
        style: 'flat',
      });
    }
  }
}
