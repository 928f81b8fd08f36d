import { typeKeys, type HiddenLine } from './hidden-line';

const typed = (...chunks: string[]): HiddenLine => chunks.reduce<HiddenLine>((line, keys) => typeKeys(line, keys), { text: '' });

describe('typeKeys', () => {
  it('gives up on Ctrl-C, forgetting what was typed', () => {
    expect(typed('secret', '\x03')).toEqual({ text: '', end: 'interrupt' });
  });

  it('ignores control keys and escape sequences (arrows, bracketed paste markers)', () => {
    expect(typed('a\x1b[Db\x1b[200~c\x1b[201~\x07d\x1bOA')).toEqual({ text: 'abcd' });
  });

  it('erases the last character with Backspace or DEL, a whole character even outside the BMP', () => {
    expect(typed('pass🔑x', '\x7f', '\b')).toEqual({ text: 'pass' });
    expect(typed('\x7f')).toEqual({ text: '' });
  });

  it('erases the line with Ctrl-U', () => {
    expect(typed('wrong', '\x15', 'right')).toEqual({ text: 'right' });
  });

  it('ends at Enter (CR or LF), even within one chunk, ignoring what follows', () => {
    expect(typed('correct horse', '\r')).toEqual({ text: 'correct horse', end: 'enter' });
    expect(typed('pasted line\nmore')).toEqual({ text: 'pasted line', end: 'enter' });
  });

  it('ends at Ctrl-D too', () => {
    expect(typed('battery staple\x04')).toEqual({ text: 'battery staple', end: 'enter' });
  });

  it('stays open until then, keeping spaces and non-ASCII characters', () => {
    expect(typed('a b', ' ', 'é')).toEqual({ text: 'a b é' });
  });
});
