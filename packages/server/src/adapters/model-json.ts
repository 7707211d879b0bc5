/**
 * The JSON value of a model's structured answer: models that ignore the requested format often
 * wrap it in a ```json fence. Undefined when the text is not JSON, fenced or not.
 */
export function jsonOfModelAnswer(text: string): unknown {
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return JSON.parse(unfenced) as unknown;
  } catch {
    return undefined;
  }
}
