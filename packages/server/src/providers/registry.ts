import type { ModelClient } from './spec';

/** Model id (catalogue slug) → client. Built in the composition root; the console's models add theirs. */
export class ModelRegistry {
  private readonly clients: Map<string, ModelClient>;

  constructor(clients: Iterable<[string, ModelClient]>) {
    this.clients = new Map(clients);
  }

  /** The client of a model, if it has one. */
  find(modelId: string): ModelClient | undefined {
    return this.clients.get(modelId);
  }

  /** A model's client from now on (a model enabled or added in the console); calls under way keep theirs. */
  set(modelId: string, client: ModelClient): void {
    this.clients.set(modelId, client);
  }

  /** The client of a catalogue model; throws when the composition root did not register it (a wiring bug). */
  get(modelId: string): ModelClient {
    const client = this.clients.get(modelId);
    if (!client) throw new Error(`no client registered for model ${modelId}`);
    return client;
  }
}
