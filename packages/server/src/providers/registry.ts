import type { ModelClient } from './spec';

/** Model id (catalogue slug) → client. Built once in the composition root. */
export class ModelRegistry {
  private readonly clients: Map<string, ModelClient>;

  constructor(clients: Iterable<[string, ModelClient]>) {
    this.clients = new Map(clients);
  }

  /** The client of a catalogue model; throws when the composition root did not register it (a wiring bug). */
  get(modelId: string): ModelClient {
    const client = this.clients.get(modelId);
    if (!client) throw new Error(`no client registered for model ${modelId}`);
    return client;
  }
}
