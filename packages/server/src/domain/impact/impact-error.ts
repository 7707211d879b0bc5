/**
 * Why an impact cannot be computed. Every invalid input is one of these, never a `NaN` result.
 * - `unknown_model_size`: the model has no parameter count (EcoLogits' `model-not-registered`).
 * - `invalid_parameters`: a parameter count that is not a finite positive number, or a range with min > max.
 * - `invalid_tokens`: an output-token count that is negative or not finite.
 * - `invalid_latency`: a measured latency that is negative or not a number.
 * - `invalid_datacenter`: a PUE below 1 or a WUE below 0 (or not finite, or min > max).
 * - `invalid_electricity_mix`: a mix factor that is negative or missing (water for 0.9.1).
 * - `zone_not_registered`: no electricity mix for that zone in that EcoLogits version.
 * - `unknown_provider`: a provider key absent from the data-centre table (docs/impact.md#data-centres).
 * - `unknown_method`: an EcoLogits version this module does not implement.
 * - `incompatible_options`: options that contradict each other (e.g. a zone with the compar:IA switch).
 */
export type ImpactErrorCode =
  | 'unknown_model_size'
  | 'invalid_parameters'
  | 'invalid_tokens'
  | 'invalid_latency'
  | 'invalid_datacenter'
  | 'invalid_electricity_mix'
  | 'zone_not_registered'
  | 'unknown_provider'
  | 'unknown_method'
  | 'incompatible_options';

/** A typed, user-fixable error of the impact module; `code` is stable, `message` is one English line. */
export class ImpactError extends Error {
  override readonly name = 'ImpactError';

  /** Creates the error with its stable code and a one-line message. */
  constructor(
    readonly code: ImpactErrorCode,
    message: string,
  ) {
    super(message);
  }
}
