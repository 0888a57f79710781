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
