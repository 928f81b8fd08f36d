import { Inject, Injectable } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { viewsDirectory } from './views-directory';

/** The pages' one stylesheet, from the views directory (the operator's when configured), read once. */
@Injectable()
export class StylesheetSource {
  private stylesheet?: Promise<string>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  read(): Promise<string> {
    this.stylesheet ??= readFile(join(viewsDirectory(this.config.browserSignIn.viewsDir), 'tollgate.css'), 'utf8');
    return this.stylesheet;
  }
}
