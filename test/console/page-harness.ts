/**
 * The console over the app (`app.request`), as a browser without script uses it: a session cookie, the CSRF token
 * the pages carry, forms posted as a browser posts them (urlencoded; multipart with a file), htmx requests with
 * their headers, and every answer's page parsed (happy-dom, no script run) to ask what a person would: the status,
 * `Location`, headings, alerts, which fields are marked `aria-invalid` and what their messages say. What a write
 * changed is read back through the admin API (`h.json`), as a person's change would be by a script.
 *
 * @example
 * ```ts
 * const test = pageTest();
 * test('creates a flag', async ({ h, pages }) => {
 *   const admin = await pages.admin();
 *   const page = await admin.post('/projects/default/features', { name: 'checkout' });
 *   expect([page.status, page.location]).toEqual([303, '/projects/default/features/checkout']);
 * });
 * ```
 */
import { Window, type Document } from 'happy-dom';
import { expect, test as base } from 'vitest';
import { ADMIN_TOKEN, harness, type Harness } from '../helpers/harness.js';

/** The origin `app.request` answers as: every form is posted from it. */
export const ORIGIN = 'http://localhost';

/** The fields of a form as a browser sends them: one value each, several for a repeated field (checkboxes), in order. */
export type Fields = Record<string, string | readonly string[]>;

const window = new Window({ url: ORIGIN, settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });

/** One answer and its page. */
export class Answer {
  readonly status: number;
  /** The 303's `Location` (or any redirect's), or null. */
  readonly location: string | null;
  readonly headers: Headers;
  readonly html: string;
  /** The page as parsed (empty for an answer that is not HTML). */
  readonly doc: Document;

  constructor(response: Response, html: string) {
    this.status = response.status;
    this.location = response.headers.get('location');
    this.headers = response.headers;
    this.html = html;
    this.doc = new window.DOMParser().parseFromString(html, 'text/html');
  }

  /** The visible text of the first element `selector` finds (its whitespace folded), or null when none does. */
  text(selector = 'main'): string | null {
    const found = this.doc.querySelector(selector);
    return found ? (found.textContent ?? '').replace(/\s+/g, ' ').trim() : null;
  }

  /** The texts of every element `selector` finds. */
  texts(selector: string): string[] {
    return [...this.doc.querySelectorAll(selector)].map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim());
  }

  /** The level-one heading. */
  get title(): string | null {
    return this.text('h1');
  }

  /** What the page says with `role="alert"` (refusals) and `role="status"` (confirmations), in order. */
  get alerts(): string[] {
    return this.texts('[role="alert"]');
  }

  get statuses(): string[] {
    return this.texts('[role="status"]').filter((text) => text !== '');
  }

  /** The names of the fields marked `aria-invalid` (within `selector`, a form's). */
  invalid(selector = 'main'): string[] {
    return [...this.doc.querySelectorAll(`${selector} [aria-invalid="true"]`)].map((el) => el.getAttribute('name') ?? el.getAttribute('id') ?? el.tagName);
  }

  /** The message a marked field points at (its `aria-describedby`'s first element), by the field's name. */
  message(name: string, selector = 'main'): string | null {
    const field = this.doc.querySelector(`${selector} [name="${name}"][aria-invalid="true"]`);
    const id = field?.getAttribute('aria-describedby')?.split(' ')[0];
    const described = id ? this.doc.getElementById(id) : null;
    return described ? (described.textContent ?? '').replace(/\s+/g, ' ').trim() : null;
  }

  /** The form named `label` (`aria-label`, or the heading its `aria-labelledby` names). */
  form(label: string) {
    return [...this.doc.querySelectorAll('form')].find((form) => {
      const named = form.getAttribute('aria-label') ?? this.doc.getElementById(form.getAttribute('aria-labelledby') ?? '')?.textContent;
      return named?.trim() === label;
    }) ?? null;
  }

  /**
   * The hidden and filled fields of the first form posting to `action` (within `within`, a selector), as a browser
   * would send them (buttons left out, unchecked boxes too).
   */
  fieldsOf(action: string, within = ''): Record<string, string> {
    const form = this.doc.querySelector(`${within} form[action="${action}"]`.trim());
    if (!form) throw new Error(`no form posts to ${action}`);
    const fields: Record<string, string> = {};
    for (const input of form.querySelectorAll('input[name], select[name], textarea[name]')) {
      const el = input as unknown as { name: string; value: string; type?: string; checked?: boolean };
      if ((el.type === 'checkbox' || el.type === 'radio') && !el.checked) continue;
      fields[el.name] = el.value;
    }
    return fields;
  }
}

/** A signed-in browser (or one before sign-in): its cookies, its session's CSRF token. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  /** The CSRF token the last page carried (`_csrf` in its forms). */
  csrf: string | undefined;

  constructor(readonly h: Harness) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private async send(method: string, path: string, body?: string | FormData, headers: Record<string, string> = {}): Promise<Answer> {
    const all: Record<string, string> = { accept: 'text/html', ...headers };
    if (this.cookies.size > 0) all['cookie'] = this.cookieHeader();
    const response = await this.h.app.request(path, { method, headers: all, body });
    for (const set of response.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const [name, value] = pair!.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(set)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value ?? '');
    }
    const answer = new Answer(response, await response.text());
    const token = answer.doc.querySelector('input[name="_csrf"]')?.getAttribute('value');
    if (token) this.csrf = token;
    return answer;
  }

  /** The session cookie's value, or undefined. */
  get session(): string | undefined {
    return this.cookies.get('flagpole-session');
  }

  /** Forgets the session cookie (a browser whose cookies were cleared). */
  forgetSession(): void {
    this.cookies.delete('flagpole-session');
  }

  /** GETs a page (`htmx`: as htmx asks, with `HX-Request` and `HX-Current-URL`). */
  get(path: string, options: { htmx?: string } = {}): Promise<Answer> {
    return this.send('GET', path, undefined, options.htmx ? { 'hx-request': 'true', 'hx-current-url': `${ORIGIN}${options.htmx}` } : {});
  }

  /**
   * POSTs a form as a browser on this site does (`Origin`, the session's `_csrf`), urlencoded, or multipart when it
   * has a file; `htmx`: as htmx sends it from that page (the token in `X-CSRF-Token`).
   */
  post(path: string, fields: Fields = {}, options: { htmx?: string; file?: { field: string; name: string; text: string }; csrf?: string | null; origin?: string | null } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.origin !== null) headers['origin'] = options.origin ?? ORIGIN;
    const csrf = options.csrf === undefined ? this.csrf : options.csrf ?? undefined;
    const entries: [string, string][] = Object.entries(fields).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : value.map((v) => [name, v])) as [string, string][]);
    if (options.htmx) Object.assign(headers, { 'hx-request': 'true', 'hx-current-url': `${ORIGIN}${options.htmx}` }, csrf ? { 'x-csrf-token': csrf } : {});
    else if (csrf && !('_csrf' in fields)) entries.unshift(['_csrf', csrf]);
    if (options.file) {
      const form = new FormData();
      for (const [name, value] of entries) form.append(name, value);
      form.append(options.file.field, new File([options.file.text], options.file.name, { type: 'application/json' }));
      return this.send('POST', path, form, headers);
    }
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return this.send('POST', path, new URLSearchParams(entries).toString(), headers);
  }

  /** Signs in through the password form (after opening the sign-in page, which sets the sign-in cookie) and opens the page it leads to. */
  async signIn(username: string, password: string): Promise<Answer> {
    await this.get('/login');
    const answer = await this.post('/login', { username, password });
    expect(answer.status, answer.alerts.join(' ')).toBe(303);
    return this.get(answer.location!);
  }

  /** Signs in with an API token through the token form and opens the page it leads to. */
  async signInWithToken(token: string): Promise<Answer> {
    await this.get('/login');
    const answer = await this.post('/login/token', { token });
    expect(answer.status, answer.alerts.join(' ')).toBe(303);
    return this.get(answer.location!);
  }
}

/** Creates a user with a password through the admin API; returns its id. */
export async function createUser(h: Harness, username: string, password: string, rootRole = 3): Promise<number> {
  const res = await h.json('POST', '/api/admin/user-admin', { username, name: username[0]!.toUpperCase() + username.slice(1), rootRole, password });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** Browsers of one test's app. */
export interface Pages {
  /** A browser before sign-in. */
  anonymous(): Browser;
  /** A browser signed in with the harness's admin token. */
  admin(): Promise<Browser>;
  /** A browser signed in as a new user of that root role (1 Admin, 2 Editor, 3 Viewer) with a password. */
  as(username: string, rootRole?: number): Promise<Browser>;
}

/** A vitest `test` with `h` (a fresh app over a fresh data directory) and `pages`, its browsers; `seams` as the harness's (`deliver`). */
export function pageTest(env: Record<string, string> = {}, seams: Parameters<typeof harness>[2] = {}) {
  return base.extend<{ h: Harness; pages: Pages }>({
    // vitest reads a fixture's dependencies from its first parameter's destructuring: `{}` is none.
    h: async ({}, use) => {
      const h = await harness(env, undefined, seams);
      try {
        await use(h);
      } finally {
        await h.close();
      }
    },
    pages: async ({ h }, use) => {
      await use({
        anonymous: () => new Browser(h),
        admin: async () => {
          const browser = new Browser(h);
          await browser.signInWithToken(ADMIN_TOKEN);
          return browser;
        },
        as: async (username, rootRole = 3) => {
          await createUser(h, username, `${username}-password-42`, rootRole);
          const browser = new Browser(h);
          await browser.signIn(username, `${username}-password-42`);
          return browser;
        },
      });
    },
  });
}
