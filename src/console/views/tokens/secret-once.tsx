/** @jsxImportSource hono/jsx */
/**
 * A secret shown once (an API token, a personal token, a one-time password link): in a read-only field that can
 * be selected and copied by hand, with a Copy button our own script (`copy-secret.js`) shows and works, and a
 * warning that it will not be shown again. Only ever rendered in the answer to the POST that made the secret.
 */
import { Script } from '../../layout.js';

export interface SecretOnceProps {
  /** The heading, naming what was made. */
  title: string;
  /** The field's label ("Token secret", "Link"). */
  label: string;
  value: string;
  /** What it is, in the warning ("this token", "this link"). */
  what: string;
  /** A sentence on what to do with it. */
  use?: string | undefined;
}

/** The secret with its warning and copy button. */
export function SecretOnce({ title, label, value, what, use }: SecretOnceProps) {
  return (
    <section class="card secret-once" aria-labelledby="secret-title">
      <h2 id="secret-title">{title}</h2>
      <p class="alert alert-warn" id="secret-warning"><strong>Copy {what} now.</strong> It is shown only once and will not be shown again, not even to you.</p>
      <div class="field">
        <label for="secret-value">{label}</label>
        <div class="secret-row">
          <input id="secret-value" class="secret-value" type="text" readonly value={value} autocomplete="off" spellcheck={false} aria-describedby="secret-warning" />
          <button type="button" class="button button-primary" data-copy="secret-value" hidden>Copy</button>
        </div>
        <p class="hint copy-status" id="secret-value-status" role="status"></p>
      </div>
      {use ? <p class="muted">{use}</p> : null}
      <Script name="copy-secret.js" />
    </section>
  );
}
