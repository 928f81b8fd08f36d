import { Injectable } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtInViewsDirectory } from './views-directory';

/**
 * The pages' WebAuthn script, `views/passkey.js`, read once. Always the built-in one, also under an
 * operator's INTERACTION_VIEWS_DIR: it speaks to these endpoints, not to the look of the pages.
 */
@Injectable()
export class PasskeyScriptSource {
  private script?: Promise<string>;

  read(): Promise<string> {
    this.script ??= readFile(join(builtInViewsDirectory(), 'passkey.js'), 'utf8');
    return this.script;
  }
}
