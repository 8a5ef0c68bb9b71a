/**
 * The one catalogue of problems `content` reports: every code with its severity, a title, the
 * message template and the hint. `Problem.code` is typed as a key of this catalogue, so no code
 * can be reported that an editor cannot look up (docs/problems.md is generated from it:
 * `npm run schemas`).
 *
 * Templates use `{name}` for the values of one occurrence. Messages are sentences an editor who
 * is not a programmer would write; hints say what to do.
 */
import { LOCALES, languageList, localeList, OTHER_SCRIPT_LOCALES, TRANSLATED_LOCALES } from '../locales.ts';

/** How serious a problem is: an error stops the build; a warning is shown and the build goes on. */
export type Severity = 'error' | 'warning';

export interface ProblemDefinition {
  severity: Severity;
  /** A few words, for the list of codes. */
  title: string;
  /** The message, with `{name}` slots. */
  message: string;
  /** What to do, with `{name}` slots. */
  hint: string;
  /** A short example of the mistake (YAML as an editor would write it), for docs/problems.md. */
  example?: string;
  /** Which command reports it; default validate (and build, dev). */
  by?: 'validate' | 'i18n' | 'serve';
  /** Other wordings of the message, by name, for particular cases of the same mistake (listed in docs/problems.md too). */
  variants?: Record<string, string>;
  /** Other hints, by name, for particular cases (listed in docs/problems.md too). */
  hints?: Record<string, string>;
  /** The words of the problem's "expected" line, by name, with `{name}` slots (listed in docs/problems.md too). */
  expected?: Record<string, string>;
  /** The words of the problem's "found" line, by name, with `{name}` slots (listed in docs/problems.md too). */
  found?: Record<string, string>;
}

export const PROBLEMS = {
  // Files and folders
  'missing-file': {
    severity: 'error',
    title: 'A content file or folder is missing',
    message: 'The file {file} is missing.',
    hint: 'Every site needs this file; restore it from version control.',
    variants: {
      folder: 'The folder {file} is missing.',
      gone: '{file} does not exist.',
    },
    hints: {
      gone: 'Restore it from version control.',
    },
    expected: { path: 'content/{file}' },
    found: { none: 'no such file' },
  },
  'unreadable-file': {
    severity: 'error',
    title: 'A file cannot be read',
    message: '{file} cannot be read ({reason}).',
    hint: 'Check the permissions of the file and of the folders above it.',
    variants: {
      changed: '{file} changed while it was being read.',
      folder: 'The folder {file} cannot be listed ({reason}).',
    },
    hints: {
      permissions: 'Check the permissions of the file.',
      changed: 'Run the command again once the file is saved.',
      folder: 'Check the permissions of the folder.',
    },
  },
  'unexpected-file': {
    severity: 'warning',
    title: 'A file the site does not use',
    message: '{file} is not a content file the site uses, so it is ignored.',
    hint: 'Rename or remove it.',
    example: 'content/cources/  (instead of courses/)',
    variants: {
      notYaml: '{file} is not a YAML file and is ignored.',
    },
    hints: {
      notYaml: 'Only .yaml files in {dir}/ are read.',
      contentFiles: 'The content files are: {files}.',
    },
  },
  'outside-content': {
    severity: 'error',
    title: 'A link that leads out of the content folder',
    message: '{file} is a symbolic link that leads out of the content folder, so it is not read.',
    hint: 'Only files inside the content folder are read. Copy the file into the content folder instead of linking to it, or remove the link.',
    example: 'content/courses/env.yaml -> /proc/self/environ',
    expected: { file: 'a file inside the content folder' },
    found: { link: 'a symbolic link to something outside it', throughFolder: 'a path through a linked folder outside it' },
  },
  'not-a-file': {
    severity: 'error',
    title: 'Something that is not a regular file',
    message: '{file} is {kind}, not a regular file, so it is not read.',
    hint: 'Content files are plain text files: remove this one and save the content as an ordinary file.',
    example: 'content/courses/vocal.yaml made with mkfifo',
    variants: {
      folder: '{file} is a folder, not a file.',
    },
    hints: {
      folder: 'Content files are plain text files: move the folder out of the content folder, or rename it so it does not end in .yaml.',
    },
    expected: { file: 'a regular text file' },
    found: { folder: 'a folder' },
  },
  'not-a-folder': {
    severity: 'error',
    title: 'A file where a folder belongs',
    message: 'The content needs a folder {file}/, but {file} is a file.',
    hint: 'Restore the folder {file}/ from version control: it holds one .yaml file per entry.',
    example: 'content/courses  (a file instead of a folder)',
    expected: { folder: 'a folder {file}/ with one .yaml file per entry' },
    found: { file: 'a file' },
  },
  'symlink-loop': {
    severity: 'error',
    title: 'A link that leads round in a loop',
    message: '{file} is a symbolic link that leads round in a loop, so it cannot be read.',
    hint: 'Replace the link by the file itself: remove the link, then restore the file from version control.',
    example: 'content/site.yaml -> site.yaml',
    expected: { file: 'a regular file' },
    found: { loop: 'a symbolic link that, followed, comes back to itself (or passes through too many links)' },
  },
  'broken-link': {
    severity: 'error',
    title: 'A link to something that does not exist',
    message: '{file} is a symbolic link to something that does not exist.',
    hint: 'Replace the link by the file itself, or remove it.',
    example: 'content/courses/vocal.yaml -> ../old/vocal.yaml  (gone)',
    expected: { file: 'a regular file' },
    found: { link: 'a symbolic link whose target is missing' },
  },
  'file-too-large': {
    severity: 'error',
    title: 'A file too large to be a content file',
    message: '{file} is {size}; a content file of this site may have at most {max}, so it is not read.',
    hint: 'A content file is a page of text: check that this is the file you meant, or split it (one course or teacher per file).',
    example: 'content/courses/vocal.yaml -> /dev/zero',
    expected: { size: 'at most {max}' },
  },
  'too-deep': {
    severity: 'error',
    title: 'Lists and mappings nested too deep',
    message: 'Lists and mappings are nested more than {max} levels deep here.',
    hint: 'Check the indentation (each level is indented two spaces more) and that every [ and { is closed on this line.',
    example: 'features: [[[[[[[[[[ … ]]]]]]]]]]',
    expected: { depth: 'at most {max} levels of nesting (content needs fewer than 10)' },
    found: { depth: 'more than {max} levels' },
  },
  'too-many-aliases': {
    severity: 'error',
    title: 'Aliases that copy too much',
    message: 'The aliases (*name) up to here expand to more than {max} copies of anchored values.',
    hint: 'Write the repeated text out where it is needed instead of copying it with &anchor and *alias.',
    example: 'b: [*a, *a, *a, *a, *a, *a, *a, *a, *a]  (and c: [*b, *b, …], …)',
    expected: { copies: 'at most {max} copies made through &anchors and *aliases' },
    found: { copies: 'more (each alias of a value that itself holds aliases multiplies them)' },
  },
  'bad-file-name': {
    severity: 'error',
    title: 'A file name that cannot be a key',
    message: 'The file name "{name}" is not a valid key.',
    hint: 'The file name is the key other files use to refer to this entry; rename the file.',
    example: 'content/courses/Vocal Lessons.yaml',
    expected: { key: 'a name that starts with a lowercase letter and has only letters, digits, "_" and "-"' },
  },
  'byte-order-mark': {
    severity: 'error',
    title: 'The file starts with a byte-order mark',
    message: 'The file starts with a byte-order mark (BOM).',
    hint: 'Save the file as "UTF-8" (not "UTF-8 with BOM") in your editor.',
    expected: { encoding: 'UTF-8 without BOM' },
    found: { bom: 'the bytes EF BB BF before the first character' },
  },
  'invalid-utf8': {
    severity: 'error',
    title: 'The file is not UTF-8',
    message: 'The file is not valid UTF-8 text.',
    hint: 'The file was probably saved in another encoding (e.g. Windows-1251 or Latin-1). Save it as UTF-8.',
    hints: {
      windows1251:
        'The file was saved as Windows-1251. Open it in that encoding and save it as UTF-8 (VS Code: "Reopen with Encoding" → "Cyrillic (Windows 1251)", then "Save with Encoding" → "UTF-8").',
      otherEncoding: 'The file was saved in another encoding (e.g. Latin-1). Save it as UTF-8.',
    },
    expected: { encoding: 'UTF-8 text' },
    found: { windows1251: 'the byte {byte}; read as Windows-1251 (Cyrillic), line {line} says: {text}', byte: 'the byte {byte} at byte offset {offset}' },
  },
  'empty-file': {
    severity: 'error',
    title: 'An empty file',
    message: 'The file is empty.',
    hint: 'Restore the file from version control, or delete it if it was created by mistake.',
    expected: { content: 'content for this file' },
    found: { nothing: 'nothing (or only comments)' },
  },

  // YAML syntax: reported on the line where the editor must act
  'yaml-tab': {
    severity: 'error',
    title: 'A tab used for indentation',
    message: 'This line is indented with a tab.',
    hint: 'Indent with spaces only: replace the tab with spaces (two per level).',
    example: 'title:\n\tru: Вокал',
    found: { tab: 'a tab character' },
  },
  'yaml-missing-colon': {
    severity: 'error',
    title: 'A key without its colon',
    message: 'The key "{key}" has no colon after it.',
    hint: 'Put a colon right after the key: "{key}:", then the value after a space, or the indented lines under it.',
    example: 'goal\n  ru: …',
  },
  'yaml-lost-dash': {
    severity: 'error',
    title: 'A list item without its dash',
    message: 'This line belongs to a list but has no "- " in front of it.',
    hint: 'Start the item with "- ", like the items above it.',
    example: 'features:\n  - ru: …\n  ru: …',
    expected: { dash: '"- " before {what}' },
  },
  'yaml-duplicate-key': {
    severity: 'error',
    title: 'The same key twice',
    message: 'The key "{key}" appears twice here (first on line {first}).',
    hint: 'Keep one of the two and delete the other; otherwise only the last one would count.',
    example: 'title: …\ntitle: …',
  },
  'yaml-bad-indent': {
    severity: 'error',
    title: 'A line indented wrongly',
    message: 'The indentation of this line does not fit the lines around it.',
    hint: 'Entries of one mapping start in the same column; an entry nested under a key is indented two spaces more than that key.',
    example: 'title:\n  ru: Вокал\n   en: Vocal',
    variants: {
      deeper: '"{key}:" is indented deeper than "{above}:" on the line above, so it is read as more of that line\'s text.',
      left: '"{key}:" starts further left than "{before}:" above it and "{after}:" below it.',
    },
    expected: { deeper: '{spaces} before "{key}:", as before "{above}:"' },
  },
  'yaml-unclosed': {
    severity: 'error',
    title: 'An unclosed quote or bracket',
    message: 'A quote or bracket opened here is never closed.',
    hint: 'Close every quote you open; a text with a colon or # in it needs quotes around it.',
    example: 'ru: "Вокал',
    variants: {
      closedLater: 'The quote {quote} opened here is closed only on line {line}, so everything in between is read as one text.',
    },
    expected: { quote: 'a closing {quote}', onThisLine: 'a closing {quote} on this line' },
  },
  'yaml-unclosed-bracket': {
    severity: 'error',
    title: 'A list or group in brackets that is never closed',
    message: 'The "{open}" opened here is never closed with "{close}".',
    hint: 'Close it at the end of the line: {fixed}',
    example: 'languages: [ru, uk',
    expected: { close: '"{close}" at the end of the line' },
    found: { open: 'no closing bracket' },
  },
  'yaml-colon-in-text': {
    severity: 'error',
    title: 'A colon inside a text without quotes',
    message: 'The text after "{key}:" contains ": ", which YAML reads as the start of another key.',
    hint: 'Put the text in quotes: {fixed}',
    example: 'en: Note: bring shoes',
    expected: { quoted: 'a text in quotes' },
    found: { colon: 'a text with ": " and no quotes' },
  },
  'yaml-bad-dash': {
    severity: 'error',
    title: 'A list item that starts with a dash or bullet YAML does not know',
    message: 'This line starts with "{char}" ({name}), which YAML does not read as a list item.',
    hint: 'Replace "{char}" with the ordinary minus "-" (the key right of 0): {fixed}',
    example: '– ru: Дыхание, распевки  (pasted from Word)',
    expected: { dash: 'the minus "-" followed by a space' },
    found: { char: '"{char}" ({name})' },
  },
  'yaml-dash-without-space': {
    severity: 'error',
    title: 'A list dash without a space after it',
    message: 'The dash of this list item has no space after it, so "{found}" is read as one word.',
    hint: 'Write a space after the dash: {fixed}',
    example: 'teachers:\n  -vocal-coach',
    expected: { dash: '"- " (a dash and a space)' },
  },
  'yaml-invisible-character': {
    severity: 'error',
    title: 'An invisible character where YAML needs a space',
    message: 'Column {column} has a {name} (U+{code}), which looks like a space but is another character.',
    hint: 'Delete it and type an ordinary space instead (it usually comes with text copied from a web page or Word).',
    example: '\u00a0\u00a0en: Singing lessons  (non-breaking spaces)',
    expected: { nothing: 'nothing here', spaces: 'ordinary spaces' },
    found: { char: 'a {name} (U+{code})' },
  },
  'yaml-starts-with-special': {
    severity: 'error',
    title: 'A text that starts with a character YAML reads as syntax',
    message: 'The text starts with "{char}", which YAML reads as {meaning}, not as text.',
    hint: 'Put the whole text in quotes: {fixed}',
    example: 'ru: **Да.** Пробное занятие…',
    expected: { quoted: 'a text in quotes' },
    found: { start: 'a text starting with "{char}"' },
  },
  'yaml-pasted-too-deep': {
    severity: 'error',
    title: 'A block pasted with too much indentation',
    message: 'This list item starts {more} further right than the items above it (line {sibling}).',
    variants: {
      below: 'This list item starts {more} further right than the item below it (line {sibling}).',
    },
    hint: 'Move this item\'s lines {more} to the left, so its "-" stands in column {column} like the others.',
    example: 'features:\n  - ru: …\n    - ru: …  (pasted two spaces too deep)',
    expected: { column: '"-" in column {column}' },
    found: { column: '"-" in column {column}' },
  },
  'yaml-block-sign': {
    severity: 'error',
    title: 'A block sign or quote sign in front of a text',
    message: 'The text starts with "{char} ", which YAML reads as the sign of a text on the following lines, not as part of this one.',
    hint: 'Delete the "{char}" in front of the text (a quote sign copied with it, or a stray block sign): {fixed}',
    example: 'en: | Piano lessons\nru: > Да, запись песни…  (copied from a Telegram quote)',
    expected: { text: 'the text right after the colon' },
    found: { sign: '"{char}" in front of the text' },
  },
  'yaml-two-entries-on-one-line': {
    severity: 'error',
    title: 'Two entries on one line',
    message: 'This line holds two entries, "{key}:" and "{other}:": the line break between them is missing.',
    hint: 'Put "{other}: …" on a line of its own, under "{key}:".',
    example: 'title:\n  ru: Хор en: Choir',
    expected: { ownLine: '"{other}:" on a line of its own' },
    found: { sameLine: '"{other}:" on the line of "{key}:"' },
  },
  'yaml-quote-in-quoted-text': {
    severity: 'error',
    title: 'A quote inside a quoted text',
    message: 'The text is in double quotes and has a double quote inside it ({found}), where YAML ends the text.',
    variants: {
      apostrophe: 'The text is in single quotes and has an apostrophe inside it ({found}), where YAML ends the text.',
    },
    hint: 'Write a double quote inside double quotes as \\" (or use the quotes « » or “ ”): {fixed}',
    hints: {
      apostrophe: "Inside single quotes write an apostrophe twice (''), or use ’: {fixed}",
    },
    example: "en: 'the studio's choir'",
    expected: { apostrophe: "an apostrophe written twice ('')", quote: 'a double quote written \\"' },
  },
  'yaml-text-continued-at-margin': {
    severity: 'error',
    title: "A text's next line not indented",
    message: 'This line goes on with the text of "{key}:" on line {line}, but it is not indented under it, so YAML reads it as a new entry.',
    hint: 'Indent the line under the text it continues (or join it to line {line}); the two lines are read as one text.',
    example: '  - ru: Да, запись песни в студии можно купить как подарочный сертификат.\nПрофессиональная запись — от 300 €.',
    expected: { indented: 'the line indented to column {column}' },
    found: { column: 'the line starting in column {column}' },
  },
  'yaml-merge-conflict': {
    severity: 'error',
    title: 'Merge-conflict markers left in a file',
    message:
      'The file still has the markers of a merge conflict ("<<<<<<<", "=======", ">>>>>>>" on lines {lines}): the lines between them are two versions of the same part.',
    hint: 'Keep the version you want (or combine the two), then delete the marker lines; no fix is offered, since only you can choose.',
    example: '<<<<<<< HEAD\n  en: Choir\n=======\n  en: Adult choir\n>>>>>>> main',
    expected: { oneVersion: 'one version, without marker lines' },
    found: { marker: '"{marker}"' },
  },
  'yaml-comment-in-text': {
    severity: 'error',
    title: 'A "#" that turns the rest of a text into a comment',
    message: 'The text after "{key}:" starts with "#", which YAML reads as the start of a comment, so the value is empty.',
    variants: {
      cut: 'The text after "{key}:" stops at " #": YAML reads "{comment}" as a comment, so visitors see only "{shown}".',
    },
    hint: 'Put the whole text in quotes, so the "#" is part of it: {fixed}',
    hints: {
      cut: 'A note for editors goes on a line of its own, starting with "#". To keep the hashtags in the text, put the whole text in quotes: {fixed}',
    },
    example: 'ru: Поём вместе #вокал #хор\nen: #1 choir in town',
    expected: { text: 'the whole text in quotes' },
    found: { comment: 'a comment from "#": {comment}' },
  },
  'yaml-multiple-documents': {
    severity: 'error',
    title: 'More than one document in a file',
    message: 'The file contains more than one YAML document (a line with only "---").',
    hint: 'Each content file holds one document: remove the "---" line.',
  },
  'yaml-syntax': {
    severity: 'error',
    title: 'Any other YAML syntax mistake',
    message: 'This line cannot be read: {detail}.',
    hint: 'Check the indentation and punctuation on this line and the one before it. Quote a text that contains ": " or starts with a special character.',
    hints: {
      above: 'Line {line} may be the cause: {message} Check the indentation and punctuation on both lines.',
    },
  },
  'yaml-note': {
    severity: 'warning',
    title: 'Something unusual in the YAML syntax',
    message: 'Something unusual here: {detail}.',
    hint: 'Check this line against the other files; it is probably not what you meant.',
  },

  // Shapes and values (the schemas)
  'unknown-key': {
    severity: 'error',
    title: 'A key this place does not know',
    message: 'The key "{key}" is not known here.',
    hint: 'Check the spelling, or remove the key. Allowed here: {allowed}.',
    example: 'titel:\n  ru: Вокал',
    hints: {
      suggestion: '{suggestion} Keys are case-sensitive.',
    },
    expected: { oneOf: 'one of: {allowed}' },
  },
  'missing-key': {
    severity: 'error',
    title: 'A required key is missing',
    message: 'The required key "{key}" is missing.',
    hint: 'Add "{key}:" at this level.',
    example: '(the "goal:" block of a course deleted)',
    variants: {
      courseRoute: 'A course route needs the key "course".',
      legalRoute: 'A legal route needs the key "legal" (impressum, privacy or terms).',
    },
    hints: {
      courseRoute: 'Name the file in content/courses/ that this page shows.',
      legalRoute: 'Say which legal text this page shows.',
    },
    expected: { key: '"{key}:" here', courseRoute: '"course: <course key>"', legalRoute: '"legal: impressum|privacy|terms"' },
    found: { courseRoute: 'no course key', legalRoute: 'no legal key' },
  },
  'missing-ru': {
    severity: 'error',
    title: 'A text without its Russian version',
    message: 'This text has no Russian version (ru).',
    hint: `Russian is the source text and the fallback for ${languageList(TRANSLATED_LOCALES)}: add "ru:" with the Russian text.`,
    example: 'title:\n  en: Vocal',
    expected: { ru: 'a "ru:" line', source: 'a "ru:" line: Russian is the source of every translation' },
    found: { only: 'only {present}' },
  },
  'wrong-type': {
    severity: 'error',
    title: 'A value of the wrong kind',
    message: 'This should be {expected}, but it is {found}.',
    hint: 'Change the value to {expected}.',
    example: 'amount: 40 €',
    variants: {
      empty: 'The value after the colon is empty.',
      notNumber: '{value} is not {expected}.',
      listForOne: 'This is a list of several values ({values}), but one value goes here.',
    },
    expected: { oneValue: 'one value, not a list' },
    hints: {
      whole: 'Write a whole number, without decimals.',
      decimalComma: 'Write decimals with a point, without quotes: {number}.',
      numberOnly: 'Write only the number, without quotes or a currency sign: {number}. Amounts are always in euros.',
      wholeNumberOnly: 'Write only the whole number, without quotes or a currency sign: {number}. Amounts are always in euros.',
      digits: 'Write the amount in digits, e.g. {number}.',
      quote: 'Put the value in quotes, so it is read as text: "{value}".',
      emptyText: 'Write the text after the colon, or remove the key if it is optional.',
      oneEntryPerLine: 'Write each entry on its own line starting with "- ", e.g.\n  - {value}',
      oneEntryPerDay: 'Write one entry per day: copy this entry once for each of {values}, with one day in each (day: {first}).',
      oneValue: 'Write one value here, not the list {values}; where each of them is meant, write one entry for each.',
    },
  },
  'not-allowed': {
    severity: 'error',
    title: 'A value that is not one of the allowed ones',
    message: '{found} is not one of the values allowed here.',
    hint: 'Use one of: {allowed}.',
    example: 'per: monthly',
    hints: {
      suggestion: '{suggestion} Allowed here: {allowed}.',
    },
    expected: { oneOf: 'one of: {allowed}' },
  },
  'bad-format': {
    severity: 'error',
    title: 'A value in the wrong form',
    message: '{found} is not written the way it should be.',
    hint: 'Write {format}.',
    example: 'validUntil: 31.12.2026',
    variants: {
      range: '{found} is a start and an end written as one value; one {what} goes here.',
    },
    hints: {
      rangeStartEnd: "Write the start here ({key}: '{start}') and the end under \"{other}:\" ('{end}'), one value in each.",
      rangeOne: 'Write one {what} here, e.g. {end} (the last day of the range).',
    },
  },
  'raw-html': {
    severity: 'error',
    title: 'An HTML tag in a text',
    message: 'The text contains the HTML tag {tag}, which is not allowed.',
    hint: 'Remove the tag. For emphasis write **bold** or *italic*; for a link, use a menu entry or call to action.',
    example: 'ru: Поём <b>вместе</b>',
    expected: { plain: 'plain text, with **bold** or *italic* for emphasis' },
  },
  'line-break': {
    severity: 'error',
    title: 'A line break in a one-line text',
    message: 'A line break (or another control character) in a text that stands on one line.',
    hint: 'Write the text on one line. In YAML, remove the \\n from a quoted text, or the line break after "|" or ">".',
    example: 'name: "Studio\\nBcc: someone"',
    expected: { oneLine: 'one line: a name, title, label or address part has no line breaks' },
  },
  'i18next-syntax': {
    severity: 'error',
    title: 'Text that i18next would interpret',
    message: '"{found}" is i18next\'s syntax for inserting another text ({effect}).',
    hint: 'Write the words themselves; one text cannot include another.',
    example: 'menu: $t(nav.menu)',
    variants: {
      formatting: '"{found}" is i18next formatting syntax, which {effect}.',
    },
    hints: {
      plainVariable: 'Write the variable plainly, e.g. {variable}: the site formats it.',
      noVariables: 'Remove the double braces and write the words themselves.',
    },
    expected: {
      plain: 'plain text',
      variables: 'only the variables of {key}: {variables}',
      noVariables: 'no variables ({key} has none)',
      noContentVariables: 'no variables (content texts have none)',
    },
  },
  'unknown-variable': {
    severity: 'error',
    title: 'A {{variable}} the text does not have',
    message: '"{found}" is not a variable of this text: {effect}.',
    hint: 'Use the variables of the Russian text, spelt as there; the site fills in the value.',
    example: 'ru: Осталось {{counts}} мест  (the text has {{count}})',
    hints: {
      variables: 'Use {variables}, spelt as in the Russian text; the site fills in the value.',
      noVariables: 'Remove the double braces and write the words themselves.',
    },
    expected: {
      variables: 'only the variables of {key}: {variables}',
      noVariables: 'no variables ({key} has none)',
      noContentVariables: 'no variables (content texts have none)',
    },
  },
  'days-word-twice': {
    severity: 'error',
    title: 'A word for days after the retention period',
    message: 'The {language} text writes "{found}": the period is filled in with its word for days already ("{filled}"), so visitors would read "{shown}".',
    hint: 'Leave out "{word}": write the variable alone, as the Russian text does.',
    expected: { alone: 'the variable alone (it reads "{filled}")' },
    example: 'ru: удаляются через {{keepDays}} дней  (the page would read "через 180 дней дней")',
  },
  'single-brace-variable': {
    severity: 'error',
    title: 'A {variable} in single braces',
    message: 'The {language} text writes "{found}" in single braces: the site fills in only {variable}, so visitors would see "{found}" and no value.',
    hint: 'Write {variable}, with double braces, as the Russian text does.',
    example: 'de: ab {amount}   (meant: ab {{amount}})',
    variants: {
      unknown: 'The {language} text writes "{found}" in single braces: the site fills in no such value, so visitors would see "{found}".',
    },
    hints: {
      unknown: 'Use the variables of the Russian text in double braces ({variables}), or write the words themselves.',
    },
    expected: {
      variables: 'the variables of {key} in double braces: {variables}',
      noVariables: 'plain text ({key} has no variables)',
    },
  },
  'missing-variable': {
    severity: 'error',
    title: 'A text that leaves out a {{variable}}',
    message: 'The {language} text leaves out {variable}: visitors would not see the value the site fills in there.',
    hint: 'Put {variable} where the value belongs, spelt as in the Russian text: "{russian}".',
    example: 'en: from   (the Russian text is "от {{amount}}")',
    hints: {
      russian: 'Put {variable} where the value belongs: the site passes it to {key} ({variables}).',
    },
    expected: { variables: 'every variable of {key}: {variables}' },
  },
  'too-few-items': {
    severity: 'error',
    title: 'A list that is too short',
    message: 'This list needs at least {min}.',
    hint: 'Add the missing entries, each on a line starting with "- ".',
    expected: { min: 'at least {min}' },
  },
  'empty-text': {
    severity: 'error',
    title: 'An empty text',
    message: 'The text is empty.',
    hint: 'Write the text, or remove the key if it is optional.',
    example: 'ru: ""',
    expected: { text: 'a text' },
    found: { empty: 'an empty text' },
  },
  'out-of-range': {
    severity: 'error',
    title: 'A number that is too small or too large',
    message: 'The number {found} is too {direction}.',
    hint: 'Write a number {limit}. Prices and counts cannot be negative.',
    example: 'amount: -40',
    expected: { limit: 'a number {limit}' },
  },
  'not-valid': {
    severity: 'error',
    title: 'Any other value the schema refuses',
    message: 'This value is not valid here: {detail}.',
    hint: 'Compare the value with the same place in another file.',
  },

  // Between files (only `content validate`, `build` and `dev` check these; the editor does not)
  'unknown-course': {
    severity: 'error',
    title: 'A reference to a course that does not exist',
    message: 'There is no course file courses/{value}.yaml.',
    hint: 'Use the name of a file in content/courses/ (without .yaml), or remove the reference if the course was deleted.',
    example: 'course: vocall',
    hints: {
      formOption: 'Every form option enrols in a course of content/courses/.',
      schedule: 'Use the name of a file in content/courses/.',
      routeTable: 'Create content/courses/<key>.yaml or fix the key.',
    },
    expected: { oneOf: 'one of: {known}' },
  },
  'unknown-teacher': {
    severity: 'error',
    title: 'A reference to a teacher who does not exist',
    message: 'There is no teacher file teachers/{value}.yaml.',
    hint: 'If the teacher no longer teaches here, remove this line; otherwise use the name of a file in content/teachers/ (without .yaml).',
    example: 'teachers:\n  - vocal-coch',
    expected: { oneOf: 'one of: {known}' },
  },
  'image-missing': {
    severity: 'error',
    title: 'A picture file that does not exist',
    message: 'There is no picture images/{value} in the content folder.',
    hint: 'Put the file into content/images/ (the name is case-sensitive), or correct the name here.',
    example: 'image:\n  file: vocal/lesson.jpg',
    variants: { notFile: 'The picture images/{value} is not a regular file inside the content folder.' },
    hints: { notFile: 'Copy the picture itself into content/images/; folders and links are not read.' },
    expected: { file: 'a picture in content/images/' },
    found: { none: 'no such file' },
  },
  'image-unsupported': {
    severity: 'error',
    title: 'A picture file the build cannot read',
    message: 'The file images/{value} is not a JPEG, PNG, WebP or AVIF picture.',
    hint: 'Save the picture as JPEG (photos) or PNG (drawings, logos) and name that file here.',
    example: 'image:\n  file: lesson.heic',
    variants: {
      broken: 'The picture images/{value} is damaged: its size cannot be read.',
      undecodable: 'The picture images/{value} is damaged: it cannot be decoded ({reason}).',
      svg: 'The file images/{value} is an SVG drawing; the site shows only JPEG, PNG, WebP or AVIF pictures.',
      heic: 'The file images/{value} is a HEIC photo (as an iPhone saves them); the site shows only JPEG, PNG, WebP or AVIF pictures.',
      pdf: 'The file images/{value} is a PDF document, not a picture.',
      gif: 'The file images/{value} is a GIF; the site shows only JPEG, PNG, WebP or AVIF pictures.',
      tiff: "The file images/{value} is a TIFF (a scanner's or an editor's format); the site shows only JPEG, PNG, WebP or AVIF pictures.",
    },
    hints: {
      broken: 'Export the picture again from the original and replace the file.',
      svg: 'Export the drawing as PNG, at least {min} pixels wide, and name the .png file here.',
      heic: 'Export the photo as JPEG (on the iPhone: share it with "Options → Most Compatible", or set Settings → Camera → Formats → Most Compatible) and name the .jpg file here.',
      pdf: 'Export the page as a picture (PNG for drawings and logos, JPEG for photos), at least {min} pixels wide, and name that file here.',
      gif: 'Save the picture as PNG (drawings, logos) or JPEG (photos) and name that file here.',
      tiff: 'Save the picture as JPEG (photos) or PNG (drawings, logos) and name that file here.',
    },
    expected: { formats: 'a JPEG, PNG, WebP or AVIF file' },
    found: { other: '{format}' },
  },
  'image-too-large': {
    severity: 'error',
    title: 'A picture too large to decode safely',
    message: 'The picture images/{value} has {megapixels} megapixels ({width}×{height}); the build reads pictures of at most {limit} megapixels.',
    hint: "Scale it down to about 2500 pixels wide before committing it (a camera's 45-megapixel original is still fine).",
    example: 'image:\n  file: panorama-16000x16000.jpg',
    variants: { bytes: 'The file images/{value} is {size} MB; the build reads picture files of at most {limit} MB.' },
    expected: { pixels: 'at most {limit} megapixels', bytes: 'at most {limit} MB' },
  },
  'image-too-small': {
    severity: 'error',
    title: 'A picture too small for where it is shown',
    message: 'The picture images/{value} is {width} pixels wide; {use} needs at least {min}.',
    hint: 'Use a larger version of the picture (the original from the camera is fine: the build scales it down).',
    example: 'image:\n  file: tiny.jpg',
    variants: {
      cropped:
        'The picture images/{value} is {width}×{height} pixels; cropped to the {shape} shape of {use} it keeps only {cropWidth}×{cropHeight}, and it needs at least {min} pixels wide.',
      flat: 'The picture images/{value} is {width}×{height} pixels; shown {min} pixels wide as {use}, it would be only {shown} pixels high.',
    },
    hints: {
      cropped: 'Use a picture closer to the shape {shape} (a photo, not a strip or a banner), at least {min} pixels wide after cropping.',
      flat: 'Use a version of the picture no more than four times as wide as it is high.',
    },
    expected: { width: 'at least {min} pixels wide', height: 'at least {minHeight} pixels high at {min} pixels wide' },
    found: { size: '{width}×{height} pixels' },
  },
  'image-huge': {
    severity: 'warning',
    title: 'A very large original picture',
    message: 'The picture images/{value} is very large ({size}).',
    hint: 'Scale it down to about 2500 pixels wide before committing it: the site looks the same, and the content folder stays small.',
    example: 'image:\n  file: camera-original.jpg',
  },
  'image-alt-missing': {
    severity: 'error',
    title: 'A picture without its alt text',
    message: 'The picture images/{value} has no alt text.',
    hint: `Say in a few words what the picture shows (alt: with ${localeList(LOCALES)}), or write "decorative: true" if it shows nothing a visitor needs.`,
    example: 'image:\n  file: lesson.jpg',
    variants: { locale: 'The alt text of images/{value} has no {language} version.' },
    hints: { locale: 'Add "{locale}:" under alt: a visitor using a screen reader in that language hears it.' },
  },
  'image-alt-decorative': {
    severity: 'warning',
    title: 'A decorative picture with an alt text',
    message: 'The picture images/{value} is marked "decorative: true" and also has an alt text; a decorative picture gets none, so this text is never read.',
    hint: 'If the picture shows something a visitor needs, remove "decorative: true"; otherwise remove the alt text.',
    example: 'image:\n  file: ornament.png\n  decorative: true\n  alt: { ru: Орнамент }',
  },
  'unknown-price': {
    severity: 'error',
    title: 'A reference to a price line that does not exist',
    message: 'The price line "{value}" does not exist.',
    hint: 'Use the id of a line in prices.yaml.',
    example: 'ref: vocal-individal',
    expected: { oneOf: 'one of: {known}' },
  },
  'unknown-route': {
    severity: 'error',
    title: 'A link to a page that does not exist',
    message: 'The route "{value}" does not exist.',
    hint: 'Link to a route listed in routes.yaml.',
    example: 'link: /prices',
    expected: { oneOf: 'one of: {known}' },
  },
  'unknown-section': {
    severity: 'error',
    title: 'A link to a home page section that does not exist',
    message: 'The home page section "{value}" does not exist.',
    hint: 'Use one of the home page sections.',
    example: 'link: /#contact',
    expected: { oneOf: 'one of: {known}' },
  },
  'duplicate-id': {
    severity: 'error',
    title: 'The same id twice',
    message: 'The {what} "{value}" is used twice.',
    hint: 'Give every entry its own id.',
    hints: {
      priceLine: 'Give every price line its own id.',
      formValue: 'Enquiries could not tell the two apart: give each option its own value.',
    },
  },
  'duplicate-route': {
    severity: 'error',
    title: 'The same route twice',
    message: 'The route {value} is listed twice (first at entry {first}).',
    hint: 'Remove one of the two entries.',
  },
  'table-shape': {
    severity: 'error',
    title: 'A price table row of the wrong length',
    message: 'The row has {found} amounts but the table has {expected} columns.',
    hint: 'Write one amount per column, in the order of `columns`.',
    expected: { amounts: '{columns} amounts' },
  },
  'route-mismatch': {
    severity: 'error',
    title: 'A course and its route disagree',
    message: 'The route {value} shows the course "{course}", but courses/{course}.yaml says its route is {own}.',
    hint: 'Set "route: {value}" in courses/{course}.yaml, or fix this entry.',
    variants: {
      otherPage: 'The route {value} belongs to another page in routes.yaml.',
    },
    hints: {
      otherPage: 'Add the route to routes.yaml with "page: course" and "course: {course}".',
    },
    found: { none: 'no route' },
  },
  'route-not-in-table': {
    severity: 'error',
    title: 'A course route missing from routes.yaml',
    message: 'The route {value} is not in routes.yaml.',
    hint: 'Add the route to routes.yaml with "page: course" and "course: {course}".',
  },
  'missing-home': {
    severity: 'error',
    title: 'No home page',
    message: 'The route table has no home page "/".',
    hint: 'Unknown paths lead to the home page, so "/" must exist.',
  },
  'misplaced-key': {
    severity: 'error',
    title: 'A key in the wrong kind of entry',
    message: '"{key}" only belongs to routes with page: course (this one is page: {page}).',
    hint: 'Remove the key or change the page kind.',
  },
  'route-taken': {
    severity: 'error',
    title: 'A route another course already uses',
    message: 'The route {value} is already used by {owner}.',
    hint: 'Give this course a route of its own (e.g. {suggestion}) and add it to routes.yaml with "page: course" and "course: {course}".',
    example: 'route: /vocal  (in a copy of courses/vocal.yaml)',
    expected: { own: 'a route of its own' },
  },
  'end-before-start': {
    severity: 'error',
    title: 'An end time before the start time',
    message: 'The end time {end} is not after the start time {start}.',
    hint: 'Check both times: the end comes after the start on the same day (written HH:MM, 24-hour clock).',
    example: "start: '18:00'\nend: '17:00'",
    expected: { after: 'a time after {start}' },
  },
  'course-not-in-form': {
    severity: 'warning',
    title: 'A course the enquiry form does not offer',
    message: 'The course "{course}" is on the site, but the enquiry form (form.yaml) does not offer it.',
    hint: `Add an option for it at the end of "options:" in form.yaml ("- value: {value}", "  course: {course}" and its label in ${localeList(LOCALES)}), or, if the course takes no enquiries, say so on its page.`,
    example: '(content/courses/vocalAdults.yaml added, form.yaml unchanged)',
    found: { noOption: 'no option with "course: {course}"' },
  },
  'price-mismatch': {
    severity: 'warning',
    title: 'A course price that differs from the price list',
    message: 'The course page states {page}, but the price list line "{ref}" says {list}.',
    hint: 'Visitors see both numbers. If one is outdated, correct it; if both are right (a different offer), keep them and mention the difference in the text.',
  },
  'price-thousands-separator': {
    severity: 'error',
    title: 'An amount written with a thousands separator',
    message: '"{raw}" is read as {read} €: in YAML a dot is a decimal point, not a thousands separator.',
    hint: 'For {fixed} euros write {fixed}, without a separator; if {read} € is meant, write {read}.',
    example: 'amount: 1.200   (meant: 1200)',
    expected: { whole: 'an amount in euros without a thousands separator, e.g. {fixed}' },
    found: { read: '{raw} (read as {read} €)' },
  },
  'price-suspiciously-low': {
    severity: 'warning',
    title: 'An amount far below the other prices of its file',
    message: '"{raw}" is read as {read} €, beside prices of {low}–{high} € in this file.',
    hint: 'Write the amount in whole euros without separators (1200 for one thousand two hundred, 12.50 for twelve and a half). If {read} € is right, leave it as it is.',
    example: 'amount: 1.2   (beside amounts of 60 and 180)',
    expected: { beside: 'an amount like the others of this file ({low}–{high} €)' },
    found: { read: '{raw} (read as {read} €)' },
  },
  placeholder: {
    severity: 'warning',
    title: 'A fact still to be supplied',
    message: 'Placeholder: {what}.',
    variants: { unshown: 'Placeholder: {what} (shown on no page).' },
    hint: 'This fact is not known yet and is shown to visitors as written, on {where}. Replace it with the real value before publishing.',
    hints: {
      unshown:
        'No visitor reads this text ({why}), but it is still unfinished: write the real value before it is published (a course: before it gets a page with "route:").',
    },
    example: 'phone: "TODO: studio phone number"',
  },
  'course-without-price': {
    severity: 'warning',
    title: 'A course page without any price',
    message: 'The page of the course "{course}" shows no price, and the price list has no line for it.',
    hint: 'Visitors of {route} see no price at all. When the studio names one, add a line to prices.yaml and "price:" (with "ref:" to that line) to this file.',
    example: '(a course file with "route:" and no "price:")',
  },
  'banner-expired': {
    severity: 'warning',
    title: 'A banner past its date',
    message: 'The banner "{id}" expired on {date}; it is no longer shown.',
    hint: 'Remove the banner, or move validUntil to a later date if the offer still runs.',
    expected: { date: 'a date on or after {today}' },
  },
  'description-too-long': {
    severity: 'warning',
    title: 'A page description longer than search engines show',
    message: 'The description of {path} ({locale}) has {length} characters; search engines show about {max}.',
    hint: 'Say it in one or two complete sentences; put the facts that matter most first.',
    example: 'description:\n  en: A very long text that goes on … (more than 160 characters)',
    expected: { max: 'at most {max} characters' },
    found: { length: '{length} characters' },
  },
  'title-too-long': {
    severity: 'error',
    title: 'A title longer than a page heading and a share card show',
    message: 'The {what} ({locale}) has {length} characters; a title has at most {max}.',
    hint: 'Name the page in a few words (the share card shows about three lines of it); say the rest in its description or its text.',
    example: 'title:\n  en: Singing lessons for children and teenagers, with concerts twice a year, in small groups and one to one, …',
    variants: {
      word: 'The {what} ({locale}) has a word of {length} characters; a word of a title has at most {max}.',
    },
    hints: {
      word: 'Break the word where it can be broken: a space, a hyphen, or a soft hyphen (\\u00AD in a double-quoted text) between its parts.',
    },
    expected: { max: 'at most {max} characters', word: 'words of at most {max} characters' },
    found: { length: '{length} characters', word: '"{start}…", {length} characters' },
  },
  'description-cut-off': {
    severity: 'warning',
    title: 'A page description that ends in "…"',
    message: 'The description of {path} ({locale}) ends with "…": it reads as cut off.',
    hint: 'Write complete sentences that fit, instead of shortening the text with "…".',
    example: 'description:\n  de: Gesangsunterricht für Kinder und …',
  },
  'mixed-script': {
    severity: 'warning',
    title: 'A word with letters of two alphabets',
    message: 'The word "{word}" mixes {script} letters into a {main} word ({letters}).',
    hint: "Retype the word in one alphabet: the letters look alike, but search engines, screen readers and the browser's search do not find the word.",
    example: 'de: Studioaufnаhme   (the "а" is Cyrillic)',
    hints: {
      fixed:
        'Retype the word in one alphabet: "{fixed}". The letters look alike, but search engines, screen readers and the browser\'s search do not find the word.',
    },
    expected: { oneScript: 'a word in one alphabet' },
  },
  mojibake: {
    severity: 'warning',
    title: 'Letters garbled by a wrong encoding',
    message: '"{found}" is "{fixed}" garbled: the text passed through a program that read UTF-8 as {encoding}.',
    hint: 'Write "{fixed}" instead, and check the rest of the text you copied from the same place.',
    example: 'de: Kurse fÃ¼r Kinder   (meant: für)',
  },
  'trailing-backslash': {
    severity: 'warning',
    title: 'A backslash at the end of a line',
    message: 'The text has a backslash at the end of a line: visitors see "\\" there.',
    hint: 'Remove the backslash. A text continues on the next line by itself (indented under its key, or after "|" or ">"); no sign is needed.',
    example: 'ru: Занятия по вторникам \\',
  },
  'russian-in-translation': {
    severity: 'warning',
    title: `A Russian text in a line for ${languageList(OTHER_SCRIPT_LOCALES, 'or')}`,
    message: 'The {language} text is in Russian: visitors of /{locale}/ read it as it is.',
    hint: 'Write the {language} translation here, or remove the "{locale}:" line: visitors then see the Russian text marked as Russian, and "content i18n" lists it as missing.',
    example: 'en: Хоровое пение',
    variants: {
      copied: 'The {language} text is the Russian text copied: visitors of /{locale}/ read it in Russian.',
    },
  },

  // Translations (`content i18n`)
  'glossary-term': {
    severity: 'warning',
    title: 'A term translated differently from the glossary',
    message: '"{found}" translates «{term}» differently from the glossary, which says "{use}".',
    hint: 'Use "{use}" for «{term}» everywhere (glossary in translations.yaml), so visitors see one word for one thing.',
    example: 'de: Probestunde   (the glossary says "Einheit")',
    by: 'i18n',
  },
  'missing-translation': {
    severity: 'warning',
    title: 'A text not translated yet',
    message: 'No {language} translation: visitors of /{locale}/ see the Russian text.',
    hint: 'Add "{locale}:" with the {language} text under this key.',
    by: 'i18n',
    expected: { line: 'a "{locale}:" line' },
    found: { only: 'only {present}' },
  },
  'stale-translation': {
    severity: 'warning',
    title: 'A translation older than its Russian text',
    message: 'The Russian text changed after this {language} translation was confirmed.',
    hint: 'Check the translation against the Russian text, update it if needed, then confirm it: "content i18n --confirm --file {place}" (this one only; "--locale {locale}" confirms every {language} translation).',
    by: 'i18n',
    expected: { current: 'a translation of the current Russian text' },
  },
  'unconfirmed-translation': {
    severity: 'warning',
    title: 'A translation nobody has confirmed',
    message: 'This {language} translation has not been confirmed yet.',
    hint: 'After checking it, run "content i18n --confirm --file {place}" (or "--locale {locale}" for every {language} translation) so later changes to the Russian text are noticed.',
    by: 'i18n',
  },
  'variables-differ': {
    severity: 'error',
    title: 'A translation with other {{variables}}',
    message: 'The {language} text has other variables than the Russian one.',
    hint: 'Variables in {{double braces}} are filled in by the site: keep the same names as in Russian, translate only the words around them.',
    by: 'i18n',
    expected: { none: 'no variables' },
  },
  'probably-untranslated': {
    severity: 'warning',
    title: 'A translation that is still Russian',
    message: 'The {language} text is identical to the Russian one: probably untranslated.',
    hint: 'Translate it, or, if it is a name that stays the same in every language, add it to sameInAllLanguages in translations.yaml.',
    by: 'i18n',
  },

  'not-confirmed': {
    severity: 'error',
    title: 'Translations not confirmed, because a file could not be read',
    message: 'Nothing was confirmed: {count} could not be read, and confirming now would drop the confirmations of their texts.',
    hint: 'Fix the errors above (run "content validate"), then run "content i18n --confirm" again.',
    by: 'i18n',
  },
  'lock-not-written': {
    severity: 'error',
    title: 'The file translations.yaml could not be written',
    message: 'The file translations.yaml could not be written ({reason}); it is left as it was, and nothing was confirmed.',
    variants: {
      diskFull: 'The file translations.yaml could not be written (the disk is full); it is left as it was, and nothing was confirmed.',
    },
    hint: 'Free some disk space or fix the permissions of the content folder, then run "content i18n --confirm" again.',
    by: 'i18n',
  },

  internal: {
    severity: 'error',
    title: 'A bug in the compiler',
    message: 'The compiler failed: {detail}',
    hint: 'This is not your mistake. Report it with the command you ran.',
  },
} as const satisfies Record<string, ProblemDefinition>;

export type ProblemCode = keyof typeof PROBLEMS;

/**
 * The "did you mean" sentences that start a hint, by how the value went wrong. Offered only when
 * the suggestion is valid where it would go and differs from what is written.
 */
export const SUGGESTIONS = {
  misspelt: 'Did you mean "{fixed}"?',
  lookAlike:
    '"{value}" has the {script} letter "{char}" (letter {position}), which looks like the Latin "{latin}" but is another character: write {fixed}, typed with the English keyboard layout.',
  invisible: '"{value}" has an invisible {name} in it: delete it, so it reads {fixed}.',
  keyboardLayout: '"{value}" is "{fixed}" typed with the Russian keyboard layout: switch to the English layout and write {fixed}.',
  weekday: '"{value}" is {day}: write {fixed}.',
  dashWithoutSpace: 'Put a space after the dash: "- {fixed}".',
  bullet: 'Replace "{char}" ({name}) with the ordinary minus and a space: "- {fixed}".',
} as const;
export type SuggestionKind = keyof typeof SUGGESTIONS;

/**
 * The error codes of the enquiry server (`content serve`), in the answers to the form. They are
 * part of the form's protocol (the form script reads them), so they keep their spelling.
 */
export const SERVER_CODES = {
  required: 'A required field is empty.',
  too_long: 'A field is longer than allowed.',
  invalid_email: 'The e-mail address is not valid.',
  unknown_option: 'The chosen course is not one of the form options.',
  unknown_field: 'The form sent a field the server does not know.',
  invalid: 'The enquiry is not valid (wrong content type, origin, or a bot).',
} as const;

/**
 * What an editor is told about a value in the wrong form, by the pattern (or format) it failed:
 * the same words in `content validate`'s hints and in the JSON Schemas the editor reads
 * (cli/schema/messages.ts picks one for a pattern).
 */
export interface FormatHint {
  /** What the value should look like, e.g. 'a time written HH:MM, e.g. 18:30'. */
  expected: string;
  /** What to do. */
  hint: string;
  /** Example values for the schema (`examples`). */
  examples?: string[];
}

/** Added to the hint where a value may also be a placeholder. */
export const PLACEHOLDER_NOTE = 'If the studio has not supplied this fact yet, write a placeholder: "TODO: what is missing".';

/** A hint, with the placeholder note after it where a "TODO: …" placeholder would be accepted too. */
export const withPlaceholderNote = (hint: string, placeholderOk: boolean): string => (placeholderOk ? `${hint} ${PLACEHOLDER_NOTE}` : hint);

/** What a value of a JSON Schema type is called in "expected" and "found" lines and messages. */
export const TYPE_NAMES: Record<string, string> = {
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'a group of keys (indented lines such as "ru: …")',
  array: 'a list (lines starting with "- ")',
  null: 'empty',
};

/** A limit of a number, by ajv's comparison: "of at least 0". */
export const limitWords = (comparison: string, limit: unknown): string =>
  `${({ '>=': 'of at least', '>': 'greater than', '<=': 'of at most' } as Record<string, string>)[comparison] ?? 'less than'} ${limit}`;

/** "1 item", "3 items"; "1 space", "2 spaces"; "1 file", "2 files". */
export const count = (n: number, noun: 'item' | 'space' | 'file'): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A text value as quoted in a message, shortened to 60 characters. */
export const quoteValue = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);

/** A value as a "found" line (and some messages) describe it: "the text "40 €"", "a list of 2 items". */
export const describeValue = (value: unknown): string => {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return `a list of ${count(value.length, 'item')}`;
  if (typeof value === 'object') return `a group of keys (${Object.keys(value).join(', ') || 'none'})`;
  if (typeof value === 'string') return `the text ${quoteValue(value)}`;
  if (typeof value === 'boolean') return `the word ${value}`;
  return `the number ${value}`;
};

export const FORMAT_HINTS: Record<string, FormatHint> = {
  '^[0-9a-f]{10}$': {
    expected: 'a short hash, as "content i18n --confirm" writes it',
    hint: 'Do not edit this by hand: run "content i18n --confirm" after checking the translations.',
    examples: ['59589fe2a5'],
  },
  '^[a-z][a-zA-Z0-9_-]*$': {
    expected: 'a key: a lowercase letter first, then letters, digits, "-" or "_", no spaces',
    hint: 'Write the key in lowercase Latin letters without spaces, e.g. vocal-individual.',
    examples: ['vocal', 'vocal-individual'],
  },
  '^\\/([a-z0-9]+(-[a-z0-9]+)*)?$': {
    expected: 'a route such as /vocal: a slash, then lowercase letters, digits and "-", no slash at the end',
    hint: 'Write the route as /name in lowercase, without a slash at the end, e.g. /vocal.',
    examples: ['/', '/vocal', '/early-development'],
  },
  '^\\/([a-z0-9]+(-[a-z0-9]+)*)?(#[a-z][a-z0-9-]*)?$': {
    expected: 'a page of this site such as /prises or /#contacts',
    hint: 'Write a route of this site, optionally with a section after #, e.g. /prises or /#contacts.',
    examples: ['/prises', '/#contacts'],
  },
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': {
    expected: 'a time of day written HH:MM (00:00 to 23:59), e.g. 18:30',
    hint: 'Write the time with two digits each for hours (00 to 23) and minutes and a colon, e.g. 09:00 or 18:30.',
    examples: ['09:00', '18:30'],
  },
  '^([01][0-9]|2[0-3]):[0-5][0-9]–([01][0-9]|2[0-3]):[0-5][0-9]$': {
    expected: 'a time span written HH:MM–HH:MM (hours 00 to 23) with a dash "–", e.g. 10:00–18:00',
    hint: 'Write the opening hours as 10:00–18:00 (two digits each, hours 00 to 23, the long dash "–" between).',
    examples: ['10:00–18:00'],
  },
  '^\\+?[0-9 ()/-]{6,}$': {
    expected: 'a phone number of digits, spaces, "+", "(", ")", "/" and "-"',
    hint: 'Write the phone number with digits only (spaces, +, brackets, / and - are fine), e.g. +49 30 1234567.',
    examples: ['+49 30 1234567'],
  },
  '^(?:[a-z0-9][a-z0-9_-]*\\/)*[a-z0-9][a-z0-9._-]*\\.(?:jpe?g|png|webp|avif)$': {
    expected: 'a picture in content/images/: lowercase letters, digits, "-" and "_", ending in .jpg, .png, .webp or .avif',
    hint: 'Name the file under content/images/ in lowercase without spaces (folders with "/"), e.g. vocal/lesson.jpg.',
    examples: ['studio.jpg', 'vocal/lesson.jpg'],
  },
  '^[0-9]{5}$': {
    expected: 'a German postal code of five digits',
    hint: 'Write the five digits of the postal code, e.g. 10115.',
    examples: ['10115'],
  },
  '^(\\/|https:\\/\\/)': {
    expected: 'a path on this site (/api/enquiry) or an address starting with https://',
    hint: 'Write a path starting with / or an address starting with https://.',
    examples: ['/api/enquiry'],
  },
  '^\\/[a-z0-9-]+$': {
    expected: 'a path such as /thanks: a slash, then lowercase letters, digits and "-"',
    hint: 'Write the path as /name in lowercase, e.g. /thanks.',
    examples: ['/thanks'],
  },
  '^TODO:': {
    expected: 'a placeholder "TODO: what is missing"',
    hint: 'Start the placeholder with "TODO:", e.g. "TODO: studio phone number".',
    examples: ['TODO: studio phone number'],
  },
  'format:date': {
    expected: 'a date written YYYY-MM-DD, e.g. 2026-12-31',
    hint: 'Write the date as year-month-day with dashes, e.g. 2026-12-31 (not 31.12.2026).',
    examples: ['2026-12-31'],
  },
  'format:email': {
    expected: 'an e-mail address such as info@example.de',
    hint: 'Write one e-mail address, e.g. info@example.de, without spaces or "mailto:".',
    examples: ['info@example.de'],
  },
  'format:uri': {
    expected: 'a full address starting with https://',
    hint: 'Write the full address, starting with https://, e.g. https://studio.example.de.',
    examples: ['https://studio.example.de'],
  },
};

/**
 * What the editor (yaml-language-server) shows for a check of the JSON Schemas (`errorMessage`,
 * `patternErrorMessage`), written into them by cli/schema/json-schema.ts: validate's words, without the value.
 */
export const EDITOR_MESSAGES = {
  noHtml: 'Raw HTML is not allowed in content: remove the tag. For emphasis write **bold** or *italic*.',
  number: 'Write the number in digits only, without quotes or a currency sign, e.g. 40 (decimals with a point: 40.50).',
  integer: 'Write a whole number in digits, without quotes, e.g. 4.',
  array: 'Write a list: each entry on its own line, starting with "- " (a minus and a space).',
  string: 'Write a text after the colon. Put it in quotes if it contains ": " or starts with *, &, !, [, { or #.',
  oneOf: 'Use one of: {allowed}.',
  fixed: 'Write {value} here.',
  keys: 'Allowed here: {allowed}. Keys are case-sensitive; each stands on its own line, indented under this one.',
} as const;

/** An editor message with its `{name}` slots filled. */
export const editorMessage = (name: keyof typeof EDITOR_MESSAGES, vars: Record<string, string>) =>
  EDITOR_MESSAGES[name].replace(/\{(\w+)\}/g, (all, slot: string) => vars[slot] ?? all);
