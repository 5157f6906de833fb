/** A setting that is missing, unknown or invalid: the service refuses to start. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
