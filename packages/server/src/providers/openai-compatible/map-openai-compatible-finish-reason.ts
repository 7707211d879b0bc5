/** The provider's finish reason in the AI SDK's vocabulary (`stop`, `length`, `content-filter`, `tool-calls`, `error`, `other`). */
export function mapFinishReason(reason: string | null | undefined): string {
  switch (reason) {
    case 'stop':
    case 'end_turn':
    case 'eos':
      return 'stop';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}
