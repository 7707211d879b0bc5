import { screenText } from '../../domain/privacy';
import type { RuleCapability } from '../../domain/annotation/capabilities';
import { ruleCapabilities } from '../../domain/annotation/capability-rules';
import { type SignedPrompt, signPrompt } from '../../domain/prompts/prompt-cluster-index';
import type { LanguageDetector } from '../language-detector';

/** What the rules layer reads of one conversation. */
export interface RulesInput {
  /** Every text screened for personal data (prompts of failed turns too). */
  screened: string[];
  /** The messages whose language is detected, in turn order (prompt, a, b, prompt, …). */
  messages: string[];
  /** The prompts of the complete turns, in order: the capability rules read them (none: no labels). */
  prompts?: string[];
  /** The prompt whose near-duplicate signature the page needs (its first complete one), when it needs one. */
  clusterPrompt?: string;
}

/** What the rules layer found in one conversation. */
export interface RulesOutput {
  /** Kinds of personal data the rules found (empty when none). */
  ruleKinds: string[];
  /** Each message's language, in input order. */
  messageLanguages: string[];
  /** The conversation's languages, the main one first. */
  languages: string[];
  /** The capability rules' labels of the prompts. */
  ruleLabels: RuleCapability[];
  /** The cluster prompt's MinHash signature and band keys (null when none was asked or nothing was left of it). */
  signed: Pick<SignedPrompt, 'signature' | 'bands'> | null;
}

/**
 * The deterministic layer of post-processing: personal-data rules and language identification,
 * no model. A page of conversations goes in at once so that a threaded implementation can share
 * it among its threads.
 */
export interface RulesLayer {
  screen(conversations: readonly RulesInput[]): Promise<RulesOutput[]>;
  /** Starts what the first page would (threads, their detectors), so that a timed run times only its work. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/** A conversation of one short message: each thread screens one to warm up. */
export const WARM_UP_INPUT: RulesInput = {
  screened: ['Bonjour, ceci est un message de mise en route.'],
  messages: ['Bonjour, ceci est un message de mise en route.'],
};

/** One conversation through the rules, in this thread. */
export async function screenConversation(input: RulesInput, detector: LanguageDetector): Promise<RulesOutput> {
  const kinds = new Set<string>();
  for (const text of input.screened) for (const kind of screenText(text).kinds) kinds.add(kind);
  const detected = await detector.detectConversation(input.messages);
  // The labels and the signature are pure work on the prompts: done here, on the layer's threads, not on the event loop.
  const signed = input.clusterPrompt === undefined ? null : signPrompt('', input.clusterPrompt);
  return {
    ruleKinds: [...kinds],
    messageLanguages: detected.messages,
    languages: detected.languages,
    ruleLabels: [...ruleCapabilities(input.prompts ?? [])],
    signed: signed && { signature: signed.signature, bands: signed.bands },
  };
}

/** The rules layer in this thread (tests, small stores, and each worker of the threaded one). */
export function inlineRulesLayer(detector: LanguageDetector): RulesLayer {
  return {
    screen: async (conversations) => {
      const outputs: RulesOutput[] = [];
      for (const conversation of conversations) outputs.push(await screenConversation(conversation, detector));
      return outputs;
    },
    warmUp: async () => {
      await screenConversation(WARM_UP_INPUT, detector);
    },
    close: async () => {},
  };
}
