// One prop of a host element as the attribute React 19's server renderer writes for it: a port
// of pushAttribute and pushStyleAttribute (node_modules/react-dom/cjs/react-dom-server-legacy.node.production.js).
import { escapeText, sanitizeUrl } from './escape.ts';

type Rule = (name: string, value: unknown) => string;

/** Values React leaves out of every attribute. */
const unwritable = (v: unknown) => typeof v === 'function' || typeof v === 'symbol';
const written = (name: string, value: unknown) => ` ${name}="${escapeText(value)}"`;

/** pushStringAttribute: booleans left out too. */
const text =
  (as?: string): Rule =>
  (name, v) =>
    unwritable(v) || typeof v === 'boolean' ? '' : written(as ?? name, v);
const boolean =
  (as?: string): Rule =>
  (name, v) =>
    v && !unwritable(v) ? ` ${as ?? name}=""` : '';
const verbatim: Rule = (name, v) => (unwritable(v) ? '' : written(name, v));
const url =
  (as?: string): Rule =>
  (name, v) =>
    unwritable(v) || typeof v === 'boolean' ? '' : written(as ?? name, sanitizeUrl(`${v}`));
const number =
  (min: number): Rule =>
  (name, v) =>
    // biome-ignore lint/suspicious/noGlobalIsNan: React's test, coercion included
    unwritable(v) || isNaN(v as number) || (v as number) < min ? '' : written(name, v);

/** Props written as text (pushStringAttribute), under these names. */
const TEXT = new Map([
  ['className', 'class'],
  ['tabIndex', 'tabindex'],
  ...['dir', 'role', 'viewBox', 'width', 'height'].map((n) => [n, n] as const),
  ...'Actuate Arcrole Role Show Title Type'.split(' ').map((n) => [`xlink${n}`, `xlink:${n.toLowerCase()}`] as const),
  ...'Base Lang Space'.split(' ').map((n) => [`xml${n}`, `xml:${n.toLowerCase()}`] as const),
]);
/** Props written as they are, booleans as "true" and "false". */
const VERBATIM = 'contentEditable spellCheck draggable value autoReverse externalResourcesRequired focusable preserveAlpha'.split(' ');

const anyUrl = url();
/** src and href: an empty one is left out (but on <a>: elements.ts). */
const nonEmptyUrl: Rule = (name, v) => (v === '' ? '' : anyUrl(name, v));

const rules = new Map<string, Rule>([
  ...[...TEXT].map(([n, as]) => [n, text(as)] as const),
  ...VERBATIM.map((n) => [n, verbatim] as const),
  ['style', (_, v) => style(v)],
  ['src', nonEmptyUrl],
  ['href', nonEmptyUrl],
  ['action', anyUrl],
  ['formAction', anyUrl],
  ['xlinkHref', url('xlink:href')],
  ['capture', (name, v) => (v === true ? ` ${name}=""` : v === false ? '' : verbatim(name, v))],
  ['download', (name, v) => (v === true ? ` ${name}=""` : v === false ? '' : verbatim(name, v))],
  ...['defaultValue', 'defaultChecked', 'innerHTML', 'suppressContentEditableWarning', 'suppressHydrationWarning', 'ref'].map((n) => [n, () => ''] as const),
  ...['autoFocus', 'multiple', 'muted'].map((n) => [n, boolean(n.toLowerCase())] as const),
  ...'inert allowFullScreen async autoPlay controls credentialless default defer disabled disablePictureInPicture disableRemotePlayback formNoValidate hidden loop noModule noValidate open playsInline readOnly required reversed scoped seamless itemScope'
    .split(' ')
    .map((n) => [n, boolean()] as const),
  ...['cols', 'rows', 'size', 'span'].map((n) => [n, number(1)] as const),
  ...['rowSpan', 'start'].map((n) => [n, number(Number.NEGATIVE_INFINITY)] as const),
]);

/** Props React writes under another name: these, and the SVG presentation attributes in kebab case. */
const aliases = new Map<string, string>([
  ['htmlFor', 'for'],
  ['crossOrigin', 'crossorigin'],
  ['xmlnsXlink', 'xmlns:xlink'],
  ...'acceptCharset httpEquiv accentHeight alignmentBaseline arabicForm baselineShift capHeight clipPath clipRule colorInterpolation colorInterpolationFilters colorProfile colorRendering dominantBaseline enableBackground fillOpacity fillRule floodColor floodOpacity fontFamily fontSize fontSizeAdjust fontStretch fontStyle fontVariant fontWeight glyphName glyphOrientationHorizontal glyphOrientationVertical horizAdvX horizOriginX imageRendering letterSpacing lightingColor markerEnd markerMid markerStart maskType overlinePosition overlineThickness paintOrder panose-1 pointerEvents renderingIntent shapeRendering stopColor stopOpacity strikethroughPosition strikethroughThickness strokeDasharray strokeDashoffset strokeLinecap strokeLinejoin strokeMiterlimit strokeOpacity strokeWidth textAnchor textDecoration textRendering transformOrigin underlinePosition underlineThickness unicodeBidi unicodeRange unitsPerEm vAlphabetic vHanging vIdeographic vMathematical vectorEffect vertAdvY vertOriginX vertOriginY wordSpacing writingMode xHeight'
    .split(' ')
    .map((n) => [n, n.replace(/([A-Z])/g, '-$1').toLowerCase()] as const),
]);

/** React's VALID_ATTRIBUTE_NAME_REGEX, as it is. */
const SAFE_NAME =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: combining marks are allowed after the first character
  /^[:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD][:A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\-.0-9\u00B7\u0300-\u036F\u203F-\u2040]*$/;

/**
 * The rule of a prop without one of its own (ruleOf): event handlers (on…) and unsafe names
 * left out, booleans written only for data-* and aria-*. Made once per name.
 */
function otherRule(name: string): Rule {
  if (name.length > 2 && (name[0] === 'o' || name[0] === 'O') && (name[1] === 'n' || name[1] === 'N')) return () => '';
  const as = aliases.get(name) ?? name;
  if (!SAFE_NAME.test(as)) return () => '';
  textNames.set(name, as);
  const booleans = ['data-', 'aria-'].includes(as.toLowerCase().slice(0, 5));
  return (_, v) => (unwritable(v) || (typeof v === 'boolean' && !booleans) ? '' : written(as, v));
}

const ruleOf = (name: string): Rule => {
  let rule = rules.get(name);
  if (rule === undefined) {
    rule = otherRule(name);
    rules.set(name, rule);
  }
  return rule;
};

/**
 * The props whose rule writes any string as it is, escaped, by the name of their attribute:
 * the common case, taken without calling the rule (the others are added as they are met).
 */
const textNames = new Map<string, string>([...TEXT, ...VERBATIM.map((n) => [n, n] as const)]);

/** The attribute for one prop (`value` neither null nor undefined: those are never written), with its leading space; '' for none. */
export function attribute(name: string, value: unknown): string {
  if (typeof value === 'string') {
    const as = textNames.get(name);
    if (as !== undefined) return ` ${as}="${escapeText(value)}"`;
  }
  return ruleOf(name)(name, value);
}

const UNITLESS = new Set(
  'animationIterationCount aspectRatio borderImageOutset borderImageSlice borderImageWidth boxFlex boxFlexGroup boxOrdinalGroup columnCount columns flex flexGrow flexPositive flexShrink flexNegative flexOrder gridArea gridRow gridRowEnd gridRowSpan gridRowStart gridColumn gridColumnEnd gridColumnSpan gridColumnStart fontWeight lineClamp lineHeight opacity order orphans scale tabSize widows zIndex zoom fillOpacity floodOpacity stopOpacity strokeDasharray strokeDashoffset strokeMiterlimit strokeOpacity strokeWidth MozAnimationIterationCount MozBoxFlex MozBoxFlexGroup MozLineClamp msAnimationIterationCount msFlex msZoom msFlexGrow msFlexNegative msFlexOrder msFlexPositive msFlexShrink msGridColumn msGridColumnSpan msGridRow msGridRowSpan WebkitAnimationIterationCount WebkitBoxFlex WebKitBoxFlexGroup WebkitBoxOrdinalGroup WebkitColumnCount WebkitColumns WebkitFlex WebkitFlexGrow WebkitFlexPositive WebkitFlexShrink WebkitLineClamp'.split(
    ' ',
  ),
);

/** The style prop: an object of CSS properties (custom properties kept as written), numbers in px but for unitless ones. */
function style(value: unknown): string {
  if (typeof value !== 'object')
    throw new Error(
      "The `style` prop expects a mapping from style properties to values, not a string. For example, style={{marginRight: spacing + 'em'}} when using JSX.",
    );
  const declarations: string[] = [];
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const v = (value as Record<string, unknown>)[name];
    if (v == null || typeof v === 'boolean' || v === '') continue;
    if (name.startsWith('--')) declarations.push(`${escapeText(name)}:${escapeText(`${v}`.trim())}`);
    else {
      const css = escapeText(
        name
          .replace(/([A-Z])/g, '-$1')
          .toLowerCase()
          .replace(/^ms-/, '-ms-'),
      );
      const cssValue = typeof v === 'number' ? (v === 0 || UNITLESS.has(name) ? `${v}` : `${v}px`) : escapeText(`${v}`.trim());
      declarations.push(`${css}:${cssValue}`);
    }
  }
  return declarations.length ? ` style="${declarations.join(';')}"` : '';
}
