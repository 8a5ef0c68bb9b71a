// The form controls, whose value, checked and selected props React writes its own way
// (pushStartInstance's cases for input, button, form, select, option and textarea).
import { InternalError } from '../../report/problem.ts';
import { attribute } from './attributes.ts';
import { escapeText } from './escape.ts';
import { innerHtml, open, type Props, type Start, withText } from './output.ts';

/** The props written after all others on <input> and <button> (pushFormActionAttribute), in this order. */
const FORM_ACTION = ['name', 'formAction', 'formEncType', 'formMethod', 'formTarget'];
/** The same on <form>. */
const FORM = ['action', 'encType', 'method', 'target'];

/** Props kept back from the attributes written in prop order, for the element to write itself. */
function keptBack(names: readonly string[]) {
  const kept: Props = {};
  const own = (key: string, value: unknown) => {
    if (!names.includes(key)) return undefined;
    kept[key] = value;
    return '';
  };
  return { kept, own };
}

/** The kept-back action props in React's order. A function as the action (a React form action) needs React's runtime: not ported. */
function actionAttributes(kept: Props, names: readonly string[]): string {
  if (typeof kept.formAction === 'function' || typeof kept.action === 'function')
    throw new InternalError('the HTML serializer does not support a function as a form action; render this with React');
  return names.map((n) => (kept[n] == null ? '' : attribute(n, kept[n]))).join('');
}

const input: Start = (o, _tag, props) => {
  const { kept, own } = keptBack([...FORM_ACTION, 'defaultChecked', 'defaultValue', 'checked', 'value']);
  const { attrs, children, innerHTML } = open(props, own);
  if (children != null || innerHTML != null) throw new Error('input is a self-closing tag and must neither have `children` nor use `dangerouslySetInnerHTML`.');
  const checked = kept.checked ?? kept.defaultChecked;
  const value = kept.value ?? kept.defaultValue;
  const checkedAttr = checked && typeof checked !== 'function' && typeof checked !== 'symbol' ? ' checked=""' : '';
  o.out += `<input${attrs}${actionAttributes(kept, FORM_ACTION)}${checkedAttr}${value == null ? '' : attribute('value', value)}/>`;
  return null;
};

const button: Start = (o, tag, props) => {
  const { kept, own } = keptBack(FORM_ACTION);
  const { attrs, children, innerHTML } = open(props, own);
  return withText(o, tag, attrs + actionAttributes(kept, FORM_ACTION), children, innerHTML);
};

const form: Start = (o, tag, props) => {
  const { kept, own } = keptBack(FORM);
  const { attrs, children, innerHTML } = open(props, own);
  return withText(o, tag, attrs + actionAttributes(kept, FORM), children, innerHTML);
};

/** <select>: its value is no attribute; it marks the option with that value selected (the context's `selected`, see elements.ts). */
const select: Start = (o, tag, props) => {
  const { attrs, children, innerHTML } = open(props, (key) => (key === 'value' || key === 'defaultValue' ? '' : undefined));
  o.out += `<${tag}${attrs}>${innerHtml(innerHTML, children)}`;
  return children;
};

const option: Start = (o, tag, props, context) => {
  let value: unknown = null;
  let selected: unknown = null;
  const { attrs, children, innerHTML } = open(props, (key, v) => {
    if (key === 'selected') selected = v;
    else if (key === 'value') value = v;
    return key === 'selected' ? '' : undefined;
  });
  const chosen = context.selected;
  let isSelected = Boolean(selected);
  if (chosen != null) {
    const own = value !== null ? `${value}` : optionText(children);
    isSelected = (Array.isArray(chosen) ? chosen : [chosen]).some((c) => `${c}` === own);
  }
  o.out += `<${tag}${attrs}${isSelected ? ' selected=""' : ''}>${innerHtml(innerHTML, children)}`;
  return children;
};

/** flattenOptionChildren: the text of an option without a value, compared with its select's value. */
function optionText(children: unknown): string {
  if (Array.isArray(children)) return children.map(optionText).join('');
  if (children == null || typeof children === 'boolean') return '';
  if (typeof children === 'object' || typeof children === 'function' || typeof children === 'symbol')
    throw new InternalError("the HTML serializer compares only the text of an <option> without a value with its <select>'s value");
  return `${children}`;
}

/** <textarea>: its value (or defaultValue, or children) is its text; a leading newline is doubled, as the parser drops one. */
const textarea: Start = (o, tag, props) => {
  const { kept, own } = keptBack(['value', 'defaultValue']);
  const { attrs, children, innerHTML } = open(props, own);
  if (innerHTML != null) throw new Error('`dangerouslySetInnerHTML` does not make sense on <textarea>.');
  let value = kept.value ?? kept.defaultValue ?? null;
  if (children != null) {
    if (value != null) throw new Error('If you supply `defaultValue` on a <textarea>, do not pass children.');
    if (Array.isArray(children) && children.length > 1) throw new Error('<textarea> can only have at most one child.');
    value = `${children}`;
  }
  o.out += `<${tag}${attrs}>${typeof value === 'string' && value[0] === '\n' ? '\n' : ''}${value === null ? '' : escapeText(value)}`;
  return null;
};

export const formElements: Record<string, Start> = { input, button, form, select, option, textarea };
