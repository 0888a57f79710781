/**
 * The console's declared forms, over the body as Hono parses it (`parseBody({ all: true, dot: true })`): fields
 * read into the draft the form shows again, the draft validated by the API's schema into what the handler gets,
 * and a refusal's field-error map built from the error's paths (never from its words).
 */
import { parseBody } from 'hono/utils/body';
import { describe, expect, it } from 'vitest';
import { ContextFieldForm, NewStrategyDefinitionForm } from '../../src/console/forms/definitions.forms.js';
import { NewTokenForm } from '../../src/console/forms/admin.forms.js';
import { readForm, refusalOf, type PageForm } from '../../src/console/forms/form.js';
import { SwitchForm } from '../../src/console/forms/flag-table.forms.js';
import { StrategyForm } from '../../src/console/forms/strategy.form.js';
import { VariantsForm, variantDraftOf } from '../../src/console/forms/variants.form.js';
import { failAt } from '../../src/domain/errors.js';

/** The form as a browser sends it (urlencoded, fields in this order) and as the console's form step reads it. */
async function sent(fields: [string, string][]) {
  const request = new Request('http://console/form', { method: 'POST', body: new URLSearchParams(fields), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  return parseBody(request, { all: true, dot: true });
}

const read = async <D, T>(form: PageForm<D, T>, fields: [string, string][], params: Record<string, unknown> = {}) => readForm(form, await sent(fields), params);

describe('the strategy form', () => {
  it('drops removed rows and an untouched new row, keeps list and single values apart, and reads checked segments', async () => {
    const form = await read(StrategyForm, [
      ['name', 'flexibleRollout'], ['title', ' Half '], ['parameters.rollout', '50'], ['parameters.stickiness', 'default'], ['parameters.groupId', ''],
      ['constraints.0.contextName', 'userId'], ['constraints.0.operator', 'IN'], ['constraints.0.values', '1\n 2 \n\n'], ['constraints.0.inverted', 'on'],
      ['constraints.1.contextName', 'appName'], ['constraints.1.operator', 'IN'], ['constraints.1.values', 'x'], ['constraints.1.remove', 'on'],
      ['constraints.2.contextName', 'version'], ['constraints.2.operator', 'SEMVER_GT'], ['constraints.2.values', '1.2.3'],
      ['constraints.3.new', 'true'], ['constraints.3.contextName', ''], ['constraints.3.operator', 'IN'], ['constraints.3.values', ''],
      ['segments', '4'],
    ]);
    expect(form.ok && form.value).toMatchObject({
      name: 'flexibleRollout', title: 'Half', parameters: { rollout: '50', stickiness: 'default' }, segments: [4],
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['1', '2'], inverted: true, caseInsensitive: false },
        { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3' },
      ],
    });
    expect(form.ok && form.value.parameters).not.toHaveProperty('groupId');
    expect(form.draft.constraints.map((c) => c.contextName)).toEqual(['userId', 'version']);
  });

  it('maps every issue to the field it names, the rows as the form shows them again', async () => {
    const form = await read(StrategyForm, [
      ['name', 'flexibleRollout'], ['parameters.rollout', '150'],
      ['constraints.0.contextName', 'userId'], ['constraints.0.operator', 'IN'], ['constraints.0.values', 'a'], ['constraints.0.remove', 'on'],
      ['constraints.1.contextName', 'userId'], ['constraints.1.operator', 'NUM_GT'], ['constraints.1.values', 'abc'],
    ]);
    expect(form.ok).toBe(false);
    if (form.ok) return;
    const refusal = refusalOf(StrategyForm, form.error, form.draft);
    expect(Object.keys(refusal.fields).sort()).toEqual(['constraints.0.values', 'parameters.rollout']);
    expect(refusal.fields['parameters.rollout']).toBe('"parameters.rollout": must be an integer from 0 to 100 for flexibleRollout');
    expect(refusal.alert).toBeUndefined();
    expect(refusal.status).toBe(400);
    // A use case's failure about one field lands on it; one about none goes to the form as a whole.
    expect(refusalOf(StrategyForm, failAt('ValidationError', 'segments', 'segment 9 does not exist'), form.draft).fields).toEqual({ segments: '"segments": segment 9 does not exist' });
    const archived = refusalOf(StrategyForm, { kind: 'ArchivedFeatureError', message: 'Flag is archived' }, form.draft);
    expect([archived.fields, archived.alert]).toEqual([{}, 'Flag is archived']);
  });
});

describe('the variants form', () => {
  it('becomes the API\'s list: percent weights, overrides from lines, removed and empty new rows left out', async () => {
    const form = await read(VariantsForm, [
      ['variants.0.name', 'blue'], ['variants.0.weightType', 'fix'], ['variants.0.weight', '33.3'], ['variants.0.stickiness', ''], ['variants.0.payloadType', 'string'],
      ['variants.0.payloadValue', ' b '], ['variants.0.overrides', 'userId: 7, 12\nappName:web'],
      ['variants.1.name', 'gone'], ['variants.1.weightType', 'variable'], ['variants.1.remove', 'on'],
      ['variants.2.name', 'green'], ['variants.2.weightType', 'variable'], ['variants.2.weight', ''],
      ['variants.3.name', ''], ['variants.3.new', 'true'], ['variants.3.weightType', 'variable'],
    ]);
    expect(form.ok && form.value).toMatchObject([
      { name: 'blue', weightType: 'fix', weight: 333, stickiness: 'default', payload: { type: 'string', value: ' b ' }, overrides: [{ contextName: 'userId', values: ['7', '12'] }, { contextName: 'appName', values: ['web'] }] },
      { name: 'green', weightType: 'variable', weight: 0, overrides: [] },
    ]);
    expect(form.ok && variantDraftOf(form.value[0]!).overrides).toBe('userId: 7, 12\nappName: web');
  });

  it('names the row\'s field of an issue about a variant (the API\'s list paths have no `variants.` prefix)', async () => {
    const form = await read(VariantsForm, [['variants.0.name', 'a'], ['variants.0.weightType', 'variable'], ['variants.0.payloadType', 'json'], ['variants.0.payloadValue', '{']]);
    expect(!form.ok && Object.keys(refusalOf(VariantsForm, form.error, form.draft).fields)).toEqual(['variants.0.payloadValue']);
  });
});

describe('the definition forms', () => {
  it('read legal value rows in number order, dropping removed and empty ones, across gaps left by the page', async () => {
    const form = await read(ContextFieldForm, [
      ['legalValues.10.value', ' apac '], ['legalValues.10.description', ''],
      ['legalValues.0.value', 'eu'], ['legalValues.0.description', ' Europe '],
      ['legalValues.1.value', 'us'], ['legalValues.1.remove', 'on'],
      ['legalValues.2.value', ''], ['legalValues.2.description', ''],
    ]);
    expect(form.draft.legalValues).toEqual([{ value: 'eu', description: 'Europe' }, { value: 'apac', description: '' }]);
    expect(form.ok && form.value.legalValues).toEqual([{ value: 'eu', description: 'Europe' }, { value: 'apac' }]);
  });

  it('put the schema\'s messages next to the row or list they name; a taken name next to the name', async () => {
    const twice = await read(ContextFieldForm, [['legalValues.0.value', 'a'], ['legalValues.1.value', 'a']]);
    const empty = await read(ContextFieldForm, [['legalValues.0.value', 'a'], ['legalValues.1.description', 'no value']]);
    const badType = await read(NewStrategyDefinitionForm, [['name', 'x1'], ['parameters.0.name', 'p'], ['parameters.0.type', 'colour']]);
    const fields = (form: typeof twice | typeof badType, of: PageForm) => (form.ok ? {} : refusalOf(of, form.error, form.draft).fields);
    expect(Object.keys(fields(twice, ContextFieldForm))).toEqual(['legalValues']);
    expect(Object.keys(fields(empty, ContextFieldForm))).toEqual(['legalValues.1.value']);
    expect(Object.keys(fields(badType, NewStrategyDefinitionForm))).toEqual(['parameters.0.type']);
    expect(refusalOf(NewStrategyDefinitionForm, { kind: 'NameExistsError', message: 'Strategy with name x1 already exist!' }, badType.draft).fields).toEqual({ name: 'Strategy with name x1 already exist!' });
  });
});

describe('one dialect per action', () => {
  it('the switch: a checked `enabled` is on, none is off, the offer\'s choice rides along', async () => {
    expect((await read(SwitchForm, [['enabled', 'on'], ['with', 'strategy'], ['back', '/projects/p']]))).toMatchObject({ ok: true, value: { enabled: true, with: 'strategy', back: '/projects/p' } });
    expect((await read(SwitchForm, [['back', '']]))).toMatchObject({ ok: true, value: { enabled: false } });
    expect((await read(SwitchForm, [['enabled', 'on'], ['with', 'everything']])).ok).toBe(false);
  });

  it('a token\'s projects are the checked boxes of one field, and none checked is said before the API\'s schema says it', async () => {
    const some = await read(NewTokenForm, [['tokenName', 'web'], ['type', 'client'], ['projects', 'a'], ['projects', 'b'], ['environment', 'development']]);
    expect(some.ok && some.value).toMatchObject({ tokenName: 'web', type: 'client', projects: ['a', 'b'], environment: 'development' });
    const none = await read(NewTokenForm, [['tokenName', 'web'], ['type', 'client'], ['environment', 'development']]);
    expect(!none.ok && refusalOf(NewTokenForm, none.error, none.draft).fields).toEqual({ projects: '"projects": choose at least one project, or all' });
  });
});
