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

// Live updates (issue 31 §5): the project's committed-event stream names each changed flag; when it names this
// one, the page is fetched again and its <main> replaced, unless the person is working in a form (one changed,
// an edit panel open, or focus in a field): then a notice asks them to reload, and nothing they typed is lost.
const touched = new WeakSet();
document.addEventListener('input', (event) => {
  const form = event.target instanceof Element ? event.target.closest('form') : null;
  if (form) touched.add(form);
});

function busy() {
  const main = document.getElementById('main');
  if (!main) return true;
  if ([...main.querySelectorAll('form')].some((form) => touched.has(form))) return true;
  if ([...main.querySelectorAll('details[open]')].some((details) => details.querySelector('form'))) return true;
  const active = document.activeElement;
  return active instanceof HTMLElement && main.contains(active) && active.matches('input:not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]), textarea, select');
}

function tellChanged() {
  const status = document.getElementById('flag-live');
  if (!status || status.querySelector('.alert')) return;
  const note = document.createElement('p');
  note.className = 'alert alert-info';
  note.append('This flag was changed by someone else — ');
  const link = document.createElement('a');
  link.href = location.href;
  link.textContent = 'reload to see it';
  note.append(link);
  status.replaceChildren(note);
}

async function refresh() {
  if (busy()) return tellChanged();
  const answer = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } }).catch(() => null);
  if (!answer || !answer.ok) return tellChanged();
  const fresh = new DOMParser().parseFromString(await answer.text(), 'text/html').getElementById('main');
  const main = document.getElementById('main');
  if (!fresh || !main) return tellChanged();
  // The person may have started typing while the page was fetched.
  if (busy()) return tellChanged();
  const focused = document.activeElement instanceof HTMLElement && main.contains(document.activeElement) ? document.activeElement.id : '';
  main.replaceChildren(...fresh.childNodes);
  if (window.htmx) window.htmx.process(main);
  if (focused) document.getElementById(focused)?.focus();
  // Said after the swap, so the new status region exists when its text arrives.
  setTimeout(() => {
    const status = document.getElementById('flag-live');
    if (!status || status.querySelector('p')) return;
    const note = document.createElement('p');
    note.className = 'muted small';
    note.textContent = 'Updated with a change made elsewhere.';
    status.append(note);
  }, 100);
}

document.addEventListener('DOMContentLoaded', () => {
  const live = document.getElementById('flag-live');
  if (!live || !live.dataset.events || !live.dataset.flag || !('EventSource' in window)) return;
  const source = new EventSource(live.dataset.events);
  let pending;
  source.addEventListener(`changed:${live.dataset.flag}`, () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 50);
  });
  window.addEventListener('pagehide', () => source.close());
});
