/**
 * The shape of an addon provider's definition, as Unleash's `GET /api/admin/addons` lists it in `providers`
 * (its `addonTypeSchema`): what a console draws the provider's form from.
 */

/** One parameter of a provider: a form field. `sensitive` ones are never answered (`*****`). */
export interface ProviderParameter {
  name: string;
  displayName: string;
  type: 'url' | 'text' | 'textfield';
  description?: string;
  placeholder?: string;
  required: boolean;
  sensitive: boolean;
}

/** A tag type a provider creates when one of its addons is created (`slack`, `datadog`, `new-relic`). */
export interface ProviderTagType {
  name: string;
  description: string;
  icon: string;
}

/** A provider: its form, the events it offers, and, for the deprecated ones, why it cannot be created any more. */
export interface ProviderDefinition {
  name: string;
  displayName: string;
  description: string;
  documentationUrl: string;
  howTo?: string;
  /** Set on providers that can no longer be created (existing addons keep working): the 400's message. */
  deprecated?: string;
  installation?: { url: string; title?: string; helpText?: string };
  alerts?: { type: 'success' | 'info' | 'warning' | 'error'; text: string; link?: { url: string; title?: string } }[];
  parameters: ProviderParameter[];
  events: readonly string[];
  tagTypes?: ProviderTagType[];
}

/** A parameter with Unleash's defaults (`required` and `sensitive` false). */
export const param = (p: Omit<ProviderParameter, 'required' | 'sensitive'> & Partial<Pick<ProviderParameter, 'required' | 'sensitive'>>): ProviderParameter =>
  ({ required: false, sensitive: false, ...p });

/** The optional `customHeaders` parameter most providers share: a JSON object of header names and values, sensitive. */
export const customHeadersParameter = (example: string): ProviderParameter => param({
  name: 'customHeaders',
  displayName: 'Extra HTTP Headers',
  placeholder: example,
  description: '(Optional) Extra HTTP headers for every request this integration sends: a JSON object whose keys and values are strings. They are added last, so they can replace the headers the integration sets.',
  type: 'textfield',
  sensitive: true,
});

/** The placeholder of `customHeaders` on the webhook and chat providers. */
export const PROXY_HEADERS_EXAMPLE = '{\n"ISTIO_USER_KEY": "hunter2",\n"SOME_OTHER_CUSTOM_HTTP_HEADER": "SOMEVALUE"\n}';
