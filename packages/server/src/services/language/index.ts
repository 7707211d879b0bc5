export { conversationLanguage, conversationLanguages, type MessageLanguage } from './conversation-language';
export { normaliseLanguageCode, UNDETERMINED } from './language-codes';
export { createLanguageDetector, type LanguageDetector } from './language-detector';
