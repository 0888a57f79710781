/**
 * The headers of every console page: a Content-Security-Policy that lets the page load only flagpole's own
 * files (no inline script or style, no other host, no framing), no MIME sniffing, no referrer to other
 * sites, and no caching (pages carry a CSRF token and what the signed-in person may see).
 */
import type { Context } from 'hono';
import { setResponseHeader } from '../../http/answers/answer.js';
import type { ConsoleDeps, ConsoleEnv, ConsoleStep } from '../console-deps.js';

/** The console's Content-Security-Policy. */
export const CONSOLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * Starts a page's answer: its headers (errors included: they are set before anything can fail) and the console's
 * parts on the context, for what renders it (`frameOf`).
 */
export function startPage(c: Context<ConsoleEnv>, deps: ConsoleDeps): void {
  c.set('console', deps);
  setPageHeaders(c);
}

/** Sets the page headers on the answer. */
function setPageHeaders(c: Context): void {
  setResponseHeader(c, 'Content-Security-Policy', CONSOLE_CSP);
  setResponseHeader(c, 'X-Content-Type-Options', 'nosniff');
  setResponseHeader(c, 'Referrer-Policy', 'same-origin');
  setResponseHeader(c, 'Cache-Control', 'no-store');
}

/** The first step of every page route. */
export const pageStart = (deps: ConsoleDeps): ConsoleStep => (c) => startPage(c, deps);
