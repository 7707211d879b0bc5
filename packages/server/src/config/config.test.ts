import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', path: './data/agora.db' },
      modelsPath: './models.yaml',
      adminToken: undefined,
      maxPromptChars: 60_000,
    });
  });

  it('reads the private cohorts of exports, spaces after commas allowed', () => {
    expect(loadConfig({}).privateCohorts).toEqual([]);
    expect(loadConfig({ AGORA_PRIVATE_COHORTS: 'school-2026, pilot' }).privateCohorts).toEqual(['school-2026', 'pilot']);
  });

  it('reads a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/agora' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u:p@db:5432/agora',
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['AGORA_ADMIN_TOKEN', 'short'],
    ['AGORA_MAX_PROMPT_CHARS', '0'],
    ['AGORA_LOG_LEVEL', 'loud'],
    ['AGORA_PRIVATE_COHORTS', 'pilot,,school'],
    ['AGORA_OPERATOR_CONTACT', 'call me maybe'],
    ['AGORA_OPERATOR_CONTACT', 'ftp://example.org'],
    ['AGORA_PUBLIC', 'yes'],
  ])('a bad %s stops the start with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: .*${value}`));
  });

  it('never repeats a Hub token it refuses', () => {
    const pasted = 'hf_RealLookingToken0123456789\n';
    expect(() => loadConfig({ AGORA_HUB_TOKEN: pasted })).toThrow(
      /^AGORA_HUB_TOKEN: a Hugging Face access token \(hf_…\) \(got a value not shown\)$/,
    );
    expect(() => loadConfig({ AGORA_HUB_TOKEN: pasted })).not.toThrow(/RealLookingToken/);
    expect(loadConfig({ AGORA_HUB_TOKEN: 'hf_RealLookingToken0123456789' }).console.publication.hubToken).toBe(
      'hf_RealLookingToken0123456789',
    );
  });

  it('a public arena needs the operator contact, an e-mail address or a web page', () => {
    expect(() => loadConfig({ AGORA_PUBLIC: '1' })).toThrow(/^AGORA_OPERATOR_CONTACT: a public arena \(AGORA_PUBLIC=1\)/);
    expect(loadConfig({ AGORA_PUBLIC: '1', AGORA_OPERATOR_CONTACT: 'privacy@example.org' }).operatorContact).toBe('privacy@example.org');
    expect(loadConfig({ AGORA_PUBLIC: 'true', AGORA_OPERATOR_CONTACT: 'https://example.org/contact' }).operatorContact).toBe(
      'https://example.org/contact',
    );
    expect(loadConfig({}).operatorContact).toBeUndefined();
  });
});
