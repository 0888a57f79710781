/** The playground's form: its state read from and written to the address, and checked as the API checks its body. */
import { describe, expect, it } from 'vitest';
import { formOf, playgroundUrl, requestOf } from '../../src/console/playground-form.js';

const search = (text: string) => new URLSearchParams(text);

describe('the playground form', () => {
  it('is not sent without parameters, and then checks the default environment', () => {
    const form = formOf(search(''), 'development');
    expect([form.sent, form.environments, form.allProjects, form.show, form.page]).toEqual([false, ['development'], true, 'all', 1]);
  });

  it('reads environments, projects, the context and properties, and writes the same address back', () => {
    const text = 'env=development&env=production&projects=some&project=web&appName=shop&userId=42&properties.region=eu&show=on&page=2';
    const form = formOf(search(text), 'development');
    expect(form).toMatchObject({ sent: true, environments: ['development', 'production'], allProjects: false, projects: ['web'], show: 'on', page: 2 });
    expect({ ...form.properties }).toEqual({ region: 'eu' });
    expect(formOf(search(playgroundUrl(form).slice('/playground?'.length)), undefined)).toEqual(form);
    const checked = requestOf(form);
    expect(checked.ok && checked.request).toEqual({
      environments: ['development', 'production'], projects: ['web'], context: { appName: 'shop', userId: '42', properties: { region: 'eu' } },
    });
  });

  it('refuses what the API refuses, its message on the field it names: no environment, no appName, a bad time, a bad project', () => {
    const fields = (text: string) => { const checked = requestOf(formOf(search(text), undefined)); return checked.ok ? undefined : checked.refusal.fields; };
    expect(fields('appName=shop')).toEqual({ environment: '"environment": is required' });
    expect(fields('env=development')).toEqual({ appName: expect.stringMatching(/^"context": "appName" is required/) });
    expect(fields('env=development&appName=shop&currentTime=soon')).toEqual({ currentTime: '"context": "currentTime" must be an ISO 8601 date-time' });
    expect(Object.keys(fields('env=development&appName=shop&projects=some&project=no%20spaces')!)).toEqual(['projects']);
    expect(Object.keys(fields('env=development&appName=shop&properties.__proto__=x')!)).toEqual(['__proto__']);
  });
});
