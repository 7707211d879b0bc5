import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '../spec';

/** Our plain chat messages in the AI SDK's prompt format. */
export function convertToAiSdkPrompt(messages: readonly ModelMessage[]): LanguageModelV3Prompt {
  return messages.map((message) =>
    message.role === 'system'
      ? { role: 'system', content: message.content }
      : { role: message.role, content: [{ type: 'text', text: message.content }] },
  );
}
