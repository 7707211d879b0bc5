import { describe, expect, it } from 'vitest';
import { buildIdentityLexicon, namesOwnIdentity } from './identity-leak';

const claude = buildIdentityLexicon({ id: 'claude-sonnet-4', name: 'Claude Sonnet 4', organisation: 'Anthropic' });
const qwen = buildIdentityLexicon({ id: 'qwen3-32b', name: 'Qwen3 32B', organisation: 'Alibaba' });
const mistral = buildIdentityLexicon({ id: 'mistral-small-3.2', name: 'Mistral Small 3.2 24B', organisation: 'Mistral AI' });
const llama = buildIdentityLexicon({ id: 'llama-3.3-70b', name: 'Llama 3.3 70B', organisation: 'Meta', aliases: ['Лама'] });

describe('namesOwnIdentity', () => {
  it.each([
    [claude, "I'm Claude, an AI assistant made by Anthropic."],
    [claude, 'Je suis Claude, un assistant.'],
    [claude, 'Anthropic a conçu ce modèle.'],
    [qwen, '我是通义千问，由阿里云开发的大模型。'],
    [qwen, 'Soy Qwen3, un modelo de lenguaje.'],
    [mistral, 'Je suis Mistral, développé par Mistral AI.'],
    [mistral, 'Ich bin Mistral.'],
    [llama, 'As an AI developed by Meta, I…'],
    [llama, 'Я — Лама, языковая модель.'],
    [llama, 'I am Llama 3.3 70B.'],
  ])('flags a self-introduction: %#', (lexicon, text) => {
    expect(namesOwnIdentity(text, lexicon)).toBe(true);
  });

  it.each([
    [claude, 'Claude Monet a peint les Nymphéas.'],
    [mistral, 'Le mistral souffle fort en Provence.'],
    [llama, 'La meta de este proyecto es clara.'],
    [llama, 'The llamas of Peru are friendly animals.'],
    [qwen, 'Voici une recette de quiche lorraine.'],
  ])('leaves ordinary words and other subjects alone: %#', (lexicon, text) => {
    expect(namesOwnIdentity(text, lexicon)).toBe(false);
  });
});
