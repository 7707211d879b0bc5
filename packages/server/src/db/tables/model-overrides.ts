/** The console's models: the operator's changes over models.yaml (migration 2026_12_08_010000). */

export interface ModelOverridesTable {
  model_id: string;
  /** `override` (facts changed on a YAML model) or `added` (a model the YAML does not list). */
  kind: string;
  /** JSON: the changed fields of a catalogue entry (override), or a whole entry (added). */
  body: string;
  /** Who made the change: the staff member's e-mail, or `admin-token`. */
  updated_by: string;
  updated_at: string;
}

/** One row (id 1): the version every change bumps, which each instance polls. */
export interface ModelCatalogueStampTable {
  id: number;
  version: number;
  changed_at: string;
}

export interface ModelOverrideTables {
  model_overrides: ModelOverridesTable;
  model_catalogue_stamp: ModelCatalogueStampTable;
}
