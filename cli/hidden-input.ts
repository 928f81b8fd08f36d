import type { ReadStream } from 'node:tty';
import { typeKeys, type HiddenLine } from '../src/identity/users/hidden-line';

/**
 * One line typed at the terminal `input` without echo (raw mode), after `prompt` on `output`
 * (standard error: standard output stays the command's own). Ctrl-C rejects; the terminal is
 * always restored.
 */
export function readHiddenLine(
  prompt: string,
  input: ReadStream = process.stdin as ReadStream,
  output: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  // Echo off before the prompt shows: keys typed as soon as it does are not echoed either.
  input.setRawMode(true);
  output.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let line: HiddenLine = { text: '' };
    const finish = () => {
      input.off('data', onKeys);
      input.off('end', onEnd);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
    };
    const onKeys = (keys: string) => {
      line = typeKeys(line, keys);
      if (!line.end) return;
      finish();
      if (line.end === 'interrupt') reject(new Error('interrupted'));
      else resolve(line.text);
    };
    const onEnd = () => {
      finish();
      resolve(line.text);
    };
    input.on('data', onKeys);
    input.once('end', onEnd);
  });
}
