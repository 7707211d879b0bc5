import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ArenaCatalogue } from '../services/arena-catalogue';
import { CatalogueError, isDrawable, loadCatalogue, parseCatalogue } from './catalogue';

const entry = (extra = '') => `  - id: demo-1
    name: Demo One
    organisation: Demo Lab
    license: MIT
    open_weights: true
    arch: dense
    params_b: 7
    provider:
      type: openai-compatible
      base_url: http://127.0.0.1:8080/v1
      model: demo/one
${extra}`;

describe('the model catalogue', () => {
  it('fills in defaults and marks a model without its key unavailable, never drawable', () => {
    const [model] = parseCatalogue(`models:\n${entry('      api_key_env: DEMO_KEY\n')}`, 'models.yaml', {});
    expect(model!.entry).toMatchObject({ status: 'enabled', reasoning: false });
    expect(model!.options).toMatchObject({ maxOutputTokens: 4096, firstTokenTimeoutMs: 20_000, totalTimeoutMs: 120_000 });
    expect(model!.unavailableReason).toBe('set DEMO_KEY to enable it');
    expect(isDrawable(model!)).toBe(false);
    const [withKey] = parseCatalogue(`models:\n${entry('      api_key_env: DEMO_KEY\n')}`, 'models.yaml', { DEMO_KEY: 'k' });
    expect(withKey!.apiKey).toBe('k');
    expect(isDrawable(withKey!)).toBe(true);
  });

  it('takes a description per language next to a plain one; the card keeps them all, English first for one-text readers', () => {
    const yaml = `models:\n${entry('    description:\n      fr: Un modèle de démonstration.\n      lt: Demonstracinis modelis.\n')}${entry(
      '    description: One text.\n',
    ).replace('demo-1', 'demo-2')}${entry().replace('demo-1', 'demo-3').replace('open_weights: true', 'open_weights: false')}`;
    const cards = new ArenaCatalogue(parseCatalogue(yaml, 'models.yaml', {})).publicCards();
    expect(cards.map((card) => [card.description, card.descriptions, card.license_kind])).toEqual([
      ['Un modèle de démonstration.', { fr: 'Un modèle de démonstration.', lt: 'Demonstracinis modelis.' }, 'permissive'],
      ['One text.', undefined, 'permissive'],
      [undefined, undefined, 'proprietary'],
    ]);
    const badLanguage = `models:\n${entry('    description:\n      French: Un modèle.\n')}`;
    expect(() => parseCatalogue(badLanguage, 'models.yaml', {})).toThrow(/models\.0\.description/);
  });

  it.each([
    ['an unknown key', `models:\n${entry()}    colour: blue\n`, /models\.yaml:13: models\.0\.colour: Unrecognized key: "colour"/],
    ['a wrongly typed value', `models:\n${entry().replace('params_b: 7', 'params_b: seven')}`, /models\.yaml:8: models\.0\.params_b/],
    ['a bad architecture', `models:\n${entry().replace('arch: dense', 'arch: huge')}`, /models\.yaml:7: models\.0\.arch/],
    ['a missing field', `models:\n${entry().replace('    license: MIT\n', '')}`, /models\.yaml:\d+: models\.0\.license/],
    ['duplicate ids', `models:\n${entry()}${entry()}`, /duplicate model id "demo-1"/],
    ['a YAML syntax error', 'models: [\n  - id: x\n', /models\.yaml:\d+: /],
  ])('%s is a clear error naming the file and line', (_name, yaml, message) => {
    expect(() => parseCatalogue(yaml, 'models.yaml', {})).toThrow(CatalogueError);
    expect(() => parseCatalogue(yaml, 'models.yaml', {})).toThrow(message);
  });

  it('the shipped catalogues are valid', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const shipped = loadCatalogue(`${root}models.yaml`, {});
    expect(shipped.length).toBeGreaterThanOrEqual(20);
    expect(shipped.every((model) => model.unavailableReason !== null)).toBe(true);
    expect(loadCatalogue(`${root}models.demo.yaml`, {}).every(isDrawable)).toBe(true);
  });

  it('resolves a local model: a path beside the catalogue, or an hf: reference inside the local models folder', () => {
    const local = (path: string) =>
      `models:\n${entry().replace(/ {4}provider:\n[\s\S]*$/, `    provider:\n      type: llama-cpp\n      model_path: ${path}\n`)}`;
    const [byPath] = parseCatalogue(local('weights/tiny.gguf'), '/srv/agora/models.yaml', {});
    expect(byPath!.local).toMatchObject({ path: '/srv/agora/weights/tiny.gguf', huggingFace: undefined });
    expect(byPath!.apiKey).toBeUndefined();
    expect(byPath!.unavailableReason).toBeNull();
    const [byReference] = parseCatalogue(local('hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF@v1/q4/model.gguf'), '/srv/agora/models.yaml', {
      AGORA_LOCAL_MODELS_DIR: '/var/models',
    });
    expect(byReference!.local).toMatchObject({
      path: '/var/models/Qwen/Qwen2.5-1.5B-Instruct-GGUF@v1/q4/model.gguf',
      huggingFace: { repo: 'Qwen/Qwen2.5-1.5B-Instruct-GGUF', revision: 'v1', file: 'q4/model.gguf' },
    });
    for (const bad of ['hf:owner/repo/../../etc/x.gguf', 'hf:owner/repo/./x.gguf', 'hf:owner/x.gguf', 'weights/tiny.bin'])
      expect(() => parseCatalogue(local(bad), 'models.yaml', {}), bad).toThrow(/models\.0\.provider\.model_path/);
  });

  it('an unreadable file names the variable and the path', () => {
    expect(() => loadCatalogue('/nonexistent/models.yaml', {})).toThrow(/AGORA_MODELS: cannot read \/nonexistent\/models\.yaml \(ENOENT\)/);
  });
});
