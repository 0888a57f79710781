// The one-time password link carries its secret in the fragment (`/set-password#<secret>`), which no browser
// sends to a server or in a Referer. This moves it into the form's field, takes it out of the address bar and
// history, and sends the form, so the secret only ever travels in a POST body.
document.addEventListener('DOMContentLoaded', () => {
  const form = document.getElementById('link-form');
  const field = document.getElementById('link-secret');
  if (!(form instanceof HTMLFormElement) || !(field instanceof HTMLInputElement)) return;
  const secret = decodeURIComponent(location.hash.slice(1));
  if (secret === '') return;
  history.replaceState(null, '', location.pathname);
  field.value = secret;
  const manual = document.getElementById('link-manual');
  if (manual) manual.hidden = true;
  const checking = document.getElementById('link-checking');
  if (checking) checking.hidden = false;
  form.submit();
});
