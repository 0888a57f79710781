/** @jsxImportSource hono/jsx */
/**
 * A provider's own form, drawn from its definition (`src/domain/addons/`): each parameter as a text field (a
 * textarea for a template or headers, a password field for a sensitive one), the provider's events, the projects and
 * the environments as checkboxes (`*` for all), enabled, a description. A sensitive parameter is never put in the page:
 * a stored one shows `*****`, which sent back keeps it; after a refusal it is `*****` again (or empty), never what was
 * typed. A Viewer gets the same as facts (`AddonFacts`), secrets as "Set".
 */
import { MASKED_VALUE, type Addon } from '../../../domain/addons/addon.js';
import type { ProviderDefinition, ProviderParameter } from '../../../domain/addons/provider-definition.js';
import type { AddonDraft } from '../../forms/addon.forms.js';
import { Csrf, errorAttrs, FieldError, FormAlert, idOf, type Refusal } from '../form-parts.js';

const FORM = 'addon';

export interface AddonFormProps {
  provider: ProviderDefinition;
  /** The stored addon, masked (an edit), or undefined (a new one). */
  addon: Addon | undefined;
  /** What the fields show: the stored addon's, or the refused draft. */
  values: AddonDraft;
  projects: { id: string; name: string }[];
  environments: string[];
  refused: Refusal<AddonDraft> | undefined;
  action: string;
  submit: string;
}

/** The fields' values of a stored addon (masked), or of a new one of `provider`. */
export function draftOf(provider: string, addon?: Addon): AddonDraft {
  if (!addon) return { provider, description: '', enabled: true, parameters: {}, events: [], projects: ['*'], environments: ['*'] };
  const parameters: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(addon.parameters)) parameters[name] = String(value);
  return {
    provider: addon.provider, description: addon.description, enabled: addon.enabled, parameters, events: addon.events,
    projects: addon.projects.length === 0 ? ['*'] : addon.projects, environments: addon.environments.length === 0 ? ['*'] : addon.environments,
  };
}

/** What a sensitive field shows: `*****` when the stored addon has it, else nothing (never a value typed). */
const secretValue = (addon: Addon | undefined, name: string): string => (addon && Object.hasOwn(addon.parameters, name) ? MASKED_VALUE : '');

function ParameterField({ p, value, addon, error }: { p: ProviderParameter; value: string; addon: Addon | undefined; error: Refusal<AddonDraft> | undefined }) {
  const field = `parameters.${p.name}`;
  const id = idOf('addon-param', p.name);
  const hint = `${id}-hint`;
  const attrs = { id, name: field, required: p.required, placeholder: p.placeholder, ...errorAttrs(error, FORM, field, id, hint) };
  const wide = p.type === 'textfield' || p.type === 'url';
  return (
    <div class={wide ? 'field field-wide' : 'field'}>
      <label for={id}>{p.displayName}{p.required ? null : <> <span class="muted">(optional)</span></>}</label>
      {p.sensitive
        ? <input type="password" value={secretValue(addon, p.name)} autocomplete="off" spellcheck={false} {...attrs} />
        : p.type === 'textfield'
          ? <textarea rows={p.name === 'bodyTemplate' ? 8 : 4} spellcheck={false} class="mono-input" {...attrs}>{value}</textarea>
          : <input type="text" inputmode={p.type === 'url' ? 'url' : undefined} value={value} autocapitalize="none" spellcheck={false} {...attrs} />}
      <p class="hint" id={hint}>
        {(p.description ?? '').replace(/^\((Required|Optional)\)\s*/, '')}
        {p.sensitive ? ` Kept secret: ${addon && Object.hasOwn(addon.parameters, p.name) ? 'leave ***** to keep the saved value, type a new one to replace it, or empty it to remove it.' : 'it is never shown again once saved.'}` : ''}
      </p>
      <FieldError error={error} form={FORM} field={field} id={id} />
    </div>
  );
}

/**
 * Parameters the addon holds that its provider's form has no field for (the API takes any name): sent back as they
 * are, so a save keeps them. None is sensitive (only the provider's named ones are); a name a form field cannot carry
 * (a dot would nest it) is left out.
 */
const extraParameters = (provider: ProviderDefinition, values: AddonDraft): [string, string][] =>
  Object.entries(values.parameters).filter(([name]) => /^[A-Za-z0-9_-]{1,100}$/.test(name) && !provider.parameters.some((p) => p.name === name));

/** A list of checkboxes (events, projects, environments) with its message; `all` offers `*` first. */
function Choices(props: { name: 'events' | 'projects' | 'environments'; legend: string; hint: string; options: { value: string; label: string }[]; checked: string[]; all?: string; error: Refusal<AddonDraft> | undefined }) {
  const id = `addon-${props.name}`;
  return (
    <fieldset class="field choice addon-choice" {...errorAttrs(props.error, FORM, props.name, id, `${id}-hint`)}>
      <legend>{props.legend}</legend>
      <p class="hint" id={`${id}-hint`}>{props.hint}</p>
      {props.all ? <label class="check"><input type="checkbox" name={props.name} value="*" checked={props.checked.includes('*')} /> {props.all}</label> : null}
      <div class={props.name === 'events' ? 'choice-list event-list' : 'choice-list'}>
        {props.options.map((o) => <label class="check"><input type="checkbox" name={props.name} value={o.value} checked={props.checked.includes(o.value)} /> <span>{o.label}</span></label>)}
      </div>
      <FieldError error={props.error} form={FORM} field={props.name} id={id} />
    </fieldset>
  );
}

/** The form. */
export function AddonForm({ provider, addon, values, projects, environments, refused, action, submit }: AddonFormProps) {
  // Events the addon has that its provider does not offer (any name is accepted) stay listed, so a save keeps them.
  const events = [...provider.events, ...values.events.filter((e) => !provider.events.includes(e))];
  return (
    <form method="post" action={action} class="form-grid addon-form" aria-label={submit}>
      <Csrf />
      <input type="hidden" name="provider" value={provider.name} />
      <div class="field-wide"><FormAlert error={refused} form={FORM} /></div>
      <div class="field field-wide">
        <label class="check"><input type="checkbox" name="enabled" checked={values.enabled} {...errorAttrs(refused, FORM, 'enabled', 'addon-enabled')} /> Enabled: send the selected events</label>
        <FieldError error={refused} form={FORM} field="enabled" id="addon-enabled" />
      </div>
      <div class="field field-wide">
        <label for="addon-description">Description <span class="muted">(optional)</span></label>
        <input id="addon-description" name="description" maxlength={10000} value={values.description} {...errorAttrs(refused, FORM, 'description', 'addon-description')} />
        <FieldError error={refused} form={FORM} field="description" id="addon-description" />
      </div>
      {provider.parameters.map((p) => <ParameterField p={p} value={values.parameters[p.name] ?? ''} addon={addon} error={refused} />)}
      {extraParameters(provider, values).map(([name, value]) => <input type="hidden" name={`parameters.${name}`} value={value} />)}
      <Choices name="events" legend="Events" hint="The events this integration sends." error={refused} checked={values.events}
        options={events.map((e) => ({ value: e, label: e }))} />
      <div class="field-column">
        <Choices name="projects" legend="Projects" hint="Events of these projects (events of no project always go)." all="All projects" error={refused} checked={values.projects}
          options={projects.map((p) => ({ value: p.id, label: p.name === p.id ? p.id : `${p.name} (${p.id})` }))} />
        <Choices name="environments" legend="Environments" hint="Events in these environments (events of no environment always go)." all="All environments" error={refused} checked={values.environments}
          options={environments.map((e) => ({ value: e, label: e }))} />
      </div>
      <div class="form-actions field-wide"><button type="submit" class="button button-primary">{submit}</button></div>
    </form>
  );
}

/** A filter in words: all, or the names listed. */
const filterText = (filter: string[], all: string): string => (filter.length === 0 || filter.includes('*') ? all : filter.join(', '));

/** The addon as facts, for who may not change it: a sensitive parameter reads "Set", never its value. */
export function AddonFacts({ provider, addon }: { provider: ProviderDefinition | undefined; addon: Addon }) {
  const parameters = provider?.parameters ?? [];
  return (
    <dl class="facts addon-facts">
      {parameters.map((p) => {
        const set = Object.hasOwn(addon.parameters, p.name);
        return <div><dt>{p.displayName}</dt><dd>{!set ? <span class="muted">Not set</span> : p.sensitive ? 'Set (hidden)' : <code class="wrap-anywhere">{String(addon.parameters[p.name])}</code>}</dd></div>;
      })}
      <div><dt>Events</dt><dd>{addon.events.length === 0 ? <span class="muted">None</span> : addon.events.map((e) => <code class="chip">{e}</code>)}</dd></div>
      <div><dt>Projects</dt><dd>{filterText(addon.projects, 'All')}</dd></div>
      <div><dt>Environments</dt><dd>{filterText(addon.environments, 'All')}</dd></div>
    </dl>
  );
}
