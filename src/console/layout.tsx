/** @jsxImportSource hono/jsx */
/**
 * The frame of every console page: skip link, header with the product name, the main navigation (the current
 * place marked with `aria-current`) and the signed-in person's menu with the sign-out form, then `<main>`. What
 * it shows of the viewer comes from the request (`useFrame`), read once. Scripts are flagpole's own files (CSP
 * `script-src 'self'`); htmx sends the session's CSRF token on every request it makes (`hx-headers` on `<body>`).
 */
import type { Child } from 'hono/jsx';
import type { Permission } from '../auth/permissions.js';
import type { AssetName } from './assets.js';
import { useFrame, type Viewer } from './render.js';

/** The places of the main navigation, each shown to those whose roles grant its permission outside any project. */
export const NAV = [
  { id: 'projects', href: '/projects', label: 'Projects', permission: 'READ' },
  { id: 'playground', href: '/playground', label: 'Playground', permission: 'READ' },
  { id: 'applications', href: '/applications', label: 'Applications', permission: 'READ' },
  { id: 'archive', href: '/archive', label: 'Archive', permission: 'READ' },
  { id: 'stale', href: '/stale', label: 'Stale flags', permission: 'READ' },
  { id: 'admin', href: '/admin', label: 'Admin', permission: 'READ' },
] as const satisfies readonly { id: string; href: string; label: string; permission: Permission }[];

/** A place of the main navigation. */
export type NavId = (typeof NAV)[number]['id'];

export interface LayoutProps {
  /** The page's own title; `<title>` is "<title> · flagpole". */
  title: string;
  current?: NavId | undefined;
  /** A page without navigation (sign-in): a narrow, centred frame. */
  bare?: boolean;
  children?: Child;
}

/** htmx settings: no inline indicator styles (CSP), no eval, requests to this origin only. */
const HTMX_CONFIG = JSON.stringify({ includeIndicatorStyles: false, allowEval: false, allowScriptTags: false, selfRequestsOnly: true, historyCacheSize: 0 });

/** The flag mark beside the product name. */
export function BrandMark() {
  return (
    <svg class="brand-mark" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <rect x="4" y="2" width="2.2" height="20" rx="1.1" fill="currentColor" />
      <path d="M6.2 3.5h12.3l-2.9 4.6 2.9 4.6H6.2z" fill="var(--accent)" />
    </svg>
  );
}

function UserMenu({ viewer }: { viewer: Viewer }) {
  return (
    <details class="user-menu">
      <summary>
        <span class="avatar" aria-hidden="true">{viewer.name.slice(0, 1).toUpperCase()}</span>
        <span class="user-name">{viewer.name}</span>
        <span class="sr-only">: account menu</span>
      </summary>
      <div class="menu-panel">
        <p class="menu-who">Signed in as <strong>{viewer.name}</strong><span class="menu-role">{viewer.role}</span></p>
        {viewer.person ? <p><a class="button button-secondary button-block" href="/account">Your account</a></p> : null}
        <form method="post" action="/logout">
          <CsrfField />
          <button type="submit" class="button button-secondary button-block">Sign out</button>
        </form>
      </div>
    </details>
  );
}

/** The session's CSRF token as a form's hidden field (the sign-in forms carry their own, `Csrf`'s `token`). */
export function CsrfField({ token }: { token?: string | undefined }) {
  const value = token ?? useFrame().csrf;
  return value ? <input type="hidden" name="_csrf" value={value} /> : null;
}

/** One of the console's own scripts, by its asset name. */
export function Script({ name }: { name: AssetName }) {
  return <script src={useFrame().assets.url(name)} defer></script>;
}

/** The whole page. */
export function Layout(props: LayoutProps) {
  const { title, current, bare } = props;
  const { assets, viewer, csrf, permits } = useFrame();
  const places = NAV.filter((item) => permits.has(item.permission));
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content={HTMX_CONFIG} />
        <title>{`${title} · flagpole`}</title>
        <link rel="stylesheet" href={assets.url('console.css')} />
        <script src={assets.url('htmx.js')} defer></script>
        <script src={assets.url('htmx-sse.js')} defer></script>
      </head>
      <body class={bare ? 'bare' : undefined} hx-headers={csrf ? JSON.stringify({ 'X-CSRF-Token': csrf }) : undefined}>
        <a class="skip-link" href="#main">Skip to main content</a>
        {bare ? null : (
          <header class="topbar">
            <div class="topbar-inner">
              <a class="brand" href="/projects"><BrandMark />flagpole</a>
              <nav aria-label="Main" class="nav">
                <ul>
                  {places.map((item) => (
                    <li><a href={item.href} aria-current={item.id === current ? 'page' : undefined}>{item.label}</a></li>
                  ))}
                </ul>
              </nav>
              {viewer ? <UserMenu viewer={viewer} /> : null}
            </div>
          </header>
        )}
        <main id="main" tabindex={-1} class={bare ? 'page page-bare' : 'page'}>
          {props.children}
        </main>
      </body>
    </html>
  );
}
