// The definition forms' row editors (legal values, parameters): "Add another" appends an empty row like the
// form's last one, numbered on. Without this script the form's one empty row still adds an entry per save.
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-add-row]')) button.hidden = false;
});

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-add-row]') : null;
  if (!button) return;
  const list = document.getElementById(button.dataset.addRow);
  const rows = list ? list.querySelectorAll('[data-row]') : [];
  const last = rows[rows.length - 1];
  if (!last) return;
  const from = last.dataset.row;
  const to = String(Math.max(...[...rows].map((row) => Number(row.dataset.row))) + 1);
  const row = last.cloneNode(true);
  row.dataset.row = to;
  // Names are `legalValues.<n>.value`, ids `<form>-lv-<n>-value`: renumber both and the labels pointing at them.
  for (const el of row.querySelectorAll('[name], [id], [for], [aria-describedby]')) {
    for (const attr of ['name', 'id', 'for', 'aria-describedby']) {
      const value = el.getAttribute(attr);
      if (value !== null) el.setAttribute(attr, value.replace(`.${from}.`, `.${to}.`).replace(`-${from}-`, `-${to}-`));
    }
    if (el instanceof HTMLInputElement) {
      if (el.type === 'checkbox') el.checked = false;
      else el.value = '';
      el.removeAttribute('aria-invalid');
    }
    if (el instanceof HTMLSelectElement) el.selectedIndex = 0;
  }
  for (const error of row.querySelectorAll('.field-error')) error.remove();
  list.append(row);
  row.querySelector('input')?.focus();
});
