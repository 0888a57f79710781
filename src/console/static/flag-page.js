// The flag page's rollout slider: a range input mirrors the number input it names (data-sync) both ways.
// The number input is the form's field; without this script it alone still works.
document.addEventListener('input', (event) => {
  const el = event.target;
  if (!(el instanceof HTMLInputElement)) return;
  if (el.dataset.sync) {
    const target = document.getElementById(el.dataset.sync);
    if (target) target.value = el.value;
    return;
  }
  const range = el.id ? document.querySelector(`input[data-sync="${CSS.escape(el.id)}"]`) : null;
  if (range) range.value = el.value;
});

// After a refused form the page comes back with the field the message names marked invalid: bring it into view.
document.addEventListener('DOMContentLoaded', () => {
  const invalid = document.querySelector('main [aria-invalid="true"]');
  if (invalid instanceof HTMLElement) invalid.focus();
});

// Live updates (issue 31 §5): htmx's SSE extension fetches #flag-page again when the project's stream names
// this flag (hx-trigger="sse:changed:<flag>" in views/flag/flag-page.tsx). Here only the person's work is kept:
// while they work in a form (one changed, an edit panel open, or focus in a field) the fetch, or the swap of
// what it brought, is cancelled and a notice asks them to reload, so nothing they typed is lost.
const touched = new WeakSet();
document.addEventListener('input', (event) => {
  const form = event.target instanceof Element ? event.target.closest('form') : null;
  if (form) touched.add(form);
});

function busy() {
  const page = document.getElementById('flag-page');
  if (!page) return true;
  if ([...page.querySelectorAll('form')].some((form) => touched.has(form))) return true;
  if ([...page.querySelectorAll('details[open]')].some((details) => details.querySelector('form'))) return true;
  const active = document.activeElement;
  return active instanceof HTMLElement && page.contains(active) && active.matches('input:not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]), textarea, select');
}

function say(kind, build) {
  const status = document.getElementById('flag-live');
  if (!status || status.querySelector('.alert')) return;
  const note = document.createElement('p');
  note.className = kind;
  build(note);
  status.replaceChildren(note);
}

function tellChanged() {
  say('alert alert-info', (note) => {
    note.append('This flag was changed by someone else — ');
    const link = document.createElement('a');
    link.href = location.href;
    link.textContent = 'reload to see it';
    note.append(link);
  });
}

const isLive = (event) => event.detail && event.detail.elt instanceof Element && event.detail.elt.id === 'flag-page';

// Before the fetch: not while the person works; the page's own address (a confirmation in its query kept).
document.addEventListener('htmx:confirm', (event) => {
  if (!isLive(event) || !busy()) return;
  event.preventDefault();
  tellChanged();
});
document.addEventListener('htmx:configRequest', (event) => {
  if (isLive(event)) event.detail.path = location.pathname + location.search;
});
// After it: the person may have started typing meanwhile; a failed fetch is said the same way.
document.addEventListener('htmx:beforeSwap', (event) => {
  if (!isLive(event)) return;
  if (busy() || !event.detail.xhr || event.detail.xhr.status !== 200) {
    event.detail.shouldSwap = false;
    tellChanged();
  }
});
document.addEventListener('htmx:sendError', (event) => {
  if (isLive(event)) tellChanged();
});
// Said once the new page has settled, so its status region exists when the text arrives.
document.addEventListener('htmx:afterSettle', (event) => {
  if (event.detail && event.detail.elt instanceof Element && event.detail.elt.id === 'flag-page') {
    say('muted small', (note) => { note.textContent = 'Updated with a change made elsewhere.'; });
  }
});
