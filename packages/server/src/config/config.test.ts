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
  ])('a bad %s stops the start with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: .*${value}`));
  });
});
