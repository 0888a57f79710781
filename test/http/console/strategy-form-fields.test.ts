/** The flag page's strategy form: form fields to draft, draft to the API's body, and the API's messages to fields. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { bodyOf, draftFromForm, fieldOfMessage } from '../../../src/http/console/strategy-form-fields.js';
import { StrategySchema } from '../../../src/schemas/strategy.schema.js';
import { formatIssues } from '../../../src/schemas/issues.js';

const form = (fields: Record<string, string>) => Object.assign(Object.create(null) as Record<string, string>, fields);

describe('the strategy form', () => {
  it('drops removed rows and an untouched new row, keeps list and single values apart', () => {
    const draft = draftFromForm(form({
      name: 'flexibleRollout', title: ' Half ', 'parameters.rollout': '50', 'parameters.stickiness': 'default', 'parameters.groupId': '',
      'constraints.0.contextName': 'userId', 'constraints.0.operator': 'IN', 'constraints.0.values': '1\n 2 \n\n', 'constraints.0.inverted': 'on',
      'constraints.1.contextName': 'appName', 'constraints.1.operator': 'IN', 'constraints.1.values': 'x', 'constraints.1.remove': 'on',
      'constraints.2.contextName': 'version', 'constraints.2.operator': 'SEMVER_GT', 'constraints.2.values': '1.2.3',
      'constraints.3.new': 'true', 'constraints.3.contextName': '', 'constraints.3.operator': 'IN', 'constraints.3.values': '',
      'segments.4': 'on',
    }));
    const parsed = v.parse(StrategySchema, bodyOf(draft));
    expect(parsed).toMatchObject({
      name: 'flexibleRollout', title: 'Half', parameters: { rollout: '50', stickiness: 'default' }, segments: [4],
      constraints: [
        { contextName: 'userId', operator: 'IN', values: ['1', '2'], inverted: true, caseInsensitive: false },
        { contextName: 'version', operator: 'SEMVER_GT', value: '1.2.3' },
      ],
    });
    expect(parsed.parameters).not.toHaveProperty('groupId');
  });

  it('names the field of the API\'s message', () => {
    const draft = draftFromForm(form({ name: 'flexibleRollout', 'parameters.rollout': '150', 'constraints.0.contextName': 'userId', 'constraints.0.operator': 'NUM_GT', 'constraints.0.values': 'abc' }));
    const result = v.safeParse(StrategySchema, bodyOf(draft));
    expect(result.success).toBe(false);
    const messages = result.issues!.map((issue) => formatIssues([issue]).message);
    expect(messages.map(fieldOfMessage).sort()).toEqual(['constraints.0.values', 'parameters.rollout']);
    expect(fieldOfMessage('"segments": segment 9 does not exist')).toBe('segments');
    expect(fieldOfMessage('Flag is archived')).toBeNull();
  });
});
