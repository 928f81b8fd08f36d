import { Inject, Injectable } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigType } from '../../platform/config/config-slice';
import { interactionViews } from '../../platform/config/config.slices';
import { viewsDirectory } from './views-directory';

/** The pages' one stylesheet, from the views directory (the operator's when configured), read once. */
@Injectable()
export class StylesheetSource {
  private stylesheet?: Promise<string>;

  constructor(@Inject(interactionViews.KEY) private readonly views: ConfigType<typeof interactionViews>) {}

  read(): Promise<string> {
    this.stylesheet ??= readFile(join(viewsDirectory(this.views.viewsDir), 'tollgate.css'), 'utf8');
    return this.stylesheet;
  }
}
