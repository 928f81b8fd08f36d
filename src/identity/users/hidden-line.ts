/** Where a line typed at a terminal in raw mode stands after some keys: still open, or how it ended. */
export interface HiddenLine {
  readonly text: string;
  readonly end?: 'enter' | 'interrupt';
}

const ENTER = new Set(['\r', '\n']);
const ERASE = new Set(['\x7f', '\b']);
const INTERRUPT = '\x03';
const END_OF_INPUT = '\x04';
const KILL_LINE = '\x15';
/** An escape sequence (arrow keys, function keys, bracketed paste markers): ignored. */
// eslint-disable-next-line no-control-regex -- these sequences begin with ESC
const ESCAPE_SEQUENCE = /^\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?/;

/**
 * A password typed at a terminal with echo off (the `users` command): Enter ends it, as Ctrl-D
 * does; Backspace erases a character, Ctrl-U the line, Ctrl-C gives up; other control keys are
 * ignored. Pure, so that the keys can be tested without a terminal.
 */
export function typeKeys(line: HiddenLine, keys: string): HiddenLine {
  if (line.end) return line;
  let text = line.text;
  for (let rest = keys; rest.length > 0;) {
    const escape = rest.startsWith('\x1b') ? ESCAPE_SEQUENCE.exec(rest)![0] : undefined;
    const key = escape ?? String.fromCodePoint(rest.codePointAt(0)!);
    rest = rest.slice(key.length);
    if (ENTER.has(key) || key === END_OF_INPUT) return { text, end: 'enter' };
    if (key === INTERRUPT) return { text: '', end: 'interrupt' };
    if (ERASE.has(key)) text = Array.from(text).slice(0, -1).join('');
    else if (key === KILL_LINE) text = '';
    else if (escape === undefined && key >= ' ') text += key;
  }
  return { text };
}
