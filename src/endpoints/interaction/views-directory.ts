import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Every file a views directory must hold (docs/browser-sign-in.md). */
export const VIEW_FILES = [
  'layout.eta',
  'login.eta',
  'consent.eta',
  'logout.eta',
  'error.eta',
  'signed-out.eta',
  'form-post.eta',
  'device.eta',
  'device-answered.eta',
  'step-up.eta',
  'account.eta',
  'passkey-form.eta',
  'tollgate.css',
];

/** The built-in `views/` of the project, found from here whether running from `src/` or `dist/src/`. */
export function builtInViewsDirectory(from = __dirname): string {
  for (let directory = from; ; directory = dirname(directory)) {
    const candidate = join(directory, 'views');
    if (existsSync(join(candidate, 'login.eta'))) return candidate;
    if (dirname(directory) === directory) throw new Error('the built-in views directory was not found');
  }
}

/**
 * The operator's directory (INTERACTION_VIEWS_DIR) when set, else the built-in one. An operator's
 * directory replaces the built-in one as a whole, so it must hold every file: refused at boot otherwise.
 */
export function viewsDirectory(configured: string | undefined): string {
  if (configured === undefined) return builtInViewsDirectory();
  const directory = resolve(configured);
  const missing = VIEW_FILES.filter((file) => !existsSync(join(directory, file)));
  if (missing.length > 0) throw new Error(`INTERACTION_VIEWS_DIR ${directory} lacks ${missing.join(', ')} (copy views/ and edit it)`);
  return directory;
}
