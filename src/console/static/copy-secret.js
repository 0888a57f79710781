// A secret shown once: the Copy button beside its read-only field (hidden until this script runs, since the
// field alone works without it: focus selects the whole secret to copy by hand).
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const field = document.getElementById(button.dataset.copy);
    if (!(field instanceof HTMLInputElement)) continue;
    const status = document.getElementById(`${field.id}-status`);
    const say = (text) => { if (status) status.textContent = text; };
    field.addEventListener('focus', () => field.select());
    button.hidden = false;
    button.addEventListener('click', async () => {
      field.focus();
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        say('Copied to the clipboard.');
      } catch {
        // No clipboard API (or no permission): the selection can still be copied the old way.
        say(document.execCommand('copy') ? 'Copied to the clipboard.' : 'Press Ctrl+C (or ⌘C) to copy the selected text.');
      }
    });
  }
});
