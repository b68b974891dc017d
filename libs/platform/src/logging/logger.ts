import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { prettyStream } from './pretty';

/**
 * JSON logs on stdout (one object per line). Nothing that could hold a credential is ever passed
 * in: request logs carry ids, method, path, status and timing, never headers or bodies. The
 * redact list is a second line of defence for fields someone might add later.
 */
export function createRootLogger(service: string, level: string, format: 'json' | 'pretty' = 'json'): Logger {
  return pino(
    {
      level,
      base: { service, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
          'key',
          'api_key',
          'secret',
          'webhook_secret',
          '*.webhook_secret',
          'secret_ciphertext',
          '*.secret_ciphertext',
          'key_hash',
          '*.key_hash',
        ],
        censor: '[redacted]',
      },
    },
    format === 'pretty' ? prettyStream() : undefined,
  );
}

/** `auto`: pretty lines on a terminal, JSON lines otherwise (a pipe, a file, a log collector). */
export const logFormatOf = (
  format: 'json' | 'pretty' | 'auto',
  tty = process.stdout.isTTY === true,
): 'json' | 'pretty' => (format === 'auto' ? (tty ? 'pretty' : 'json') : format);

/** Nest's start-up chatter (modules loaded, every route mapped): debug, not info. */
const BOOT_NOISE = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestMicroservice']);

/** Nest's LoggerService over pino, so framework messages are JSON lines too. */
export class JsonLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  private write(given: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, params: unknown[]) {
    const context = typeof params[params.length - 1] === 'string' ? (params[params.length - 1] as string) : undefined;
    const level = given === 'info' && context !== undefined && BOOT_NOISE.has(context) ? 'debug' : given;
    if (message instanceof Error) {
      this.pino[level](
        { context, err: { name: message.name, message: message.message, stack: message.stack } },
        message.message,
      );
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ context, ...(message as object) });
    } else {
      const stack = level === 'error' && typeof params[0] === 'string' && params.length > 1 ? params[0] : undefined;
      this.pino[level]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
}
