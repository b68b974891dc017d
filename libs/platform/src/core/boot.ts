import * as fs from 'node:fs';
import { type Config, ConfigError, loadConfig } from '@app/config';
import { createRootLogger, JsonLogger } from '../logging/logger';

/**
 * Boot helpers shared by every main.ts: read `.env` when present, validate the configuration
 * (a bad value prints one line naming the variable and exits 1), and make the JSON logger.
 */
export function loadConfigOrExit(): Config {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

export const jsonLogger = (service: string, config: Config): JsonLogger =>
  new JsonLogger(createRootLogger(service, config.logLevel));

/** Last resort: log the failure as JSON and exit non-zero so the supervisor restarts us. */
export function exitOnBootFailure(logger: JsonLogger) {
  return (error: unknown) => {
    logger.error(error instanceof Error ? error : new Error(String(error)), 'Boot');
    process.exit(1);
  };
}
