import * as fs from 'node:fs';
import * as v8 from 'node:v8';
import { type Config, ConfigError, loadConfig } from '@app/config';
import { createRootLogger, JsonLogger, logFormatOf } from '../logging/logger';

/**
 * Boot helpers shared by every main.ts: read `.env` when present, validate the configuration
 * (a bad value prints one line naming the variable and exits 1), set the heap's growth, and make
 * the JSON logger.
 */
export function loadConfigOrExit(): Config {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  try {
    const config = loadConfig();
    applyHeapGrowth(config.heapGrowthPercent);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * A service allocates fast and keeps little: left to itself, V8 lets the heap grow to several
 * times what is live before a full collection (a search process at 1,000 requests/s held 250 MB of
 * heap for 70 MB live). V8 reads this limit each time it sets the next one, so it applies from the
 * first collection on, on every thread. 0 keeps V8's own policy.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

export const jsonLogger = (service: string, config: Config): JsonLogger =>
  new JsonLogger(createRootLogger(service, config.logLevel, logFormatOf(config.logFormat)));

/** Last resort: log the failure as JSON and exit non-zero so the supervisor restarts us. */
export function exitOnBootFailure(logger: JsonLogger) {
  return (error: unknown) => {
    logger.error(error instanceof Error ? error : new Error(String(error)), 'Boot');
    process.exit(1);
  };
}

/** The address a person types for a server listening on `host` (any address reads as localhost). */
export const baseUrlOf = (host: string, port: number): string =>
  `http://${['0.0.0.0', '::', ''].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * What a person starting the service on a terminal reads once it is ready: where the console is,
 * the demo key when this boot made it (it is shown once), and one call to try.
 */
export function readyBanner(baseUrl: string, demoKey: string | null): string {
  const key = demoKey ?? '<your key>';
  return [
    '',
    '  Web research service is ready.',
    `  Console   ${baseUrl}/`,
    `  API       ${baseUrl}/v1   (OpenAPI: ${baseUrl}/v1/openapi.json)`,
    demoKey
      ? `  Demo key  ${demoKey}   (shown this once; keys: npm run keys)`
      : '  Keys      npm run keys -- create <team>   (the demo key was shown at first boot)',
    `  Try       curl -s ${baseUrl}/v1/search -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{"queries":["sodium-ion battery"]}'`,
    '',
  ].join('\n');
}
