/** The definition forms: legal value and parameter rows to drafts and bodies, and the API's messages to fields. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { fieldOfMessage, legalValuesBodyOf, legalValuesFromForm, parametersFromForm } from '../../../src/http/console/definition-form-fields.js';
import { CreateStrategyDefinitionSchema, UpdateContextFieldSchema } from '../../../src/schemas/definition.schema.js';
import { formatIssues } from '../../../src/schemas/issues.js';

const form = (fields: Record<string, string>) => Object.assign(Object.create(null) as Record<string, string>, fields);

describe('the definition forms', () => {
  it('reads legal value rows in number order, dropping removed and empty ones, across gaps left by the page', () => {
    const drafts = legalValuesFromForm(form({
      'legalValues.10.value': ' apac ', 'legalValues.10.description': '',
      'legalValues.0.value': 'eu', 'legalValues.0.description': ' Europe ',
      'legalValues.1.value': 'us', 'legalValues.1.remove': 'on',
      'legalValues.2.value': '', 'legalValues.2.description': '',
      'legalValues.x.value': 'not a row',
    }));
    expect(drafts).toEqual([{ value: 'eu', description: 'Europe' }, { value: 'apac', description: '' }]);
    expect(legalValuesBodyOf(drafts)).toEqual([{ value: 'eu', description: 'Europe' }, { value: 'apac' }]);
  });

  it('reads parameter rows, a row without a type as a string', () => {
    const drafts = parametersFromForm(form({
      'parameters.0.name': 'regions', 'parameters.0.type': 'list', 'parameters.0.required': 'on', 'parameters.0.description': 'Where',
      'parameters.1.name': 'share', 'parameters.1.remove': 'on',
      'parameters.2.name': 'note',
      'parameters.3.name': '', 'parameters.3.type': 'number',
    }));
    expect(drafts).toEqual([
      { name: 'regions', type: 'list', description: 'Where', required: true },
      { name: 'note', type: 'string', description: '', required: false },
    ]);
    expect(v.parse(CreateStrategyDefinitionSchema, { name: 'by-region', parameters: drafts }).parameters).toEqual(drafts);
  });

  it('puts the schema\'s messages next to the row or list they name', () => {
    const twice = v.safeParse(UpdateContextFieldSchema, { legalValues: [{ value: 'a' }, { value: 'a' }] });
    const empty = v.safeParse(UpdateContextFieldSchema, { legalValues: [{ value: 'a' }, { value: '' }] });
    const badType = v.safeParse(CreateStrategyDefinitionSchema, { name: 'x1', parameters: [{ name: 'p', type: 'colour' }] });
    const fields = ['name', 'description', 'legalValues', 'parameters'];
    expect(fieldOfMessage(formatIssues(twice.issues!).message, fields)).toBe('legalValues');
    expect(fieldOfMessage(formatIssues(empty.issues!).message, fields)).toBe('legalValues.1.value');
    expect(fieldOfMessage(formatIssues(badType.issues!).message, fields)).toBe('parameters.0.type');
    expect(fieldOfMessage('A context field named "x" already exists', fields, 'NameExistsError')).toBe('name');
    expect(fieldOfMessage('"sortOrder": must be an integer', fields)).toBeNull();
  });
});
