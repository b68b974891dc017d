import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { CONTRACTS, type Subject } from './contracts';

export type ContractSide = 'request' | 'reply';

export class ContractError extends Error {
  constructor(
    readonly subject: string,
    readonly side: ContractSide,
    readonly problems: string[],
  ) {
    super(`${subject} ${side} breaks its contract: ${problems.join('; ')}`);
    this.name = 'ContractError';
  }
}

const flatten = (errors: ValidationError[], prefix = ''): string[] =>
  errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((message) => (prefix ? `${prefix}.${message}` : message)),
    ...flatten(e.children ?? [], `${prefix}${prefix ? '.' : ''}${e.property}`),
  ]);

/**
 * Throws a ContractError unless `payload` is exactly what the DTO declares. Strict on purpose
 * (forbidNonWhitelisted, no implicit conversion): the contract suite exists to catch drift, and
 * a field the DTO doesn't declare is drift (a consumer may start relying on an undocumented
 * field). Handlers that want tolerant-reader behaviour at runtime should strip instead
 * (ValidationPipe with whitelist: true, forbidNonWhitelisted: false).
 */
export function assertContract<S extends Subject>(subject: S, side: ContractSide, payload: unknown): void {
  const contract = (CONTRACTS as Record<string, (typeof CONTRACTS)[Subject] | undefined>)[subject];
  if (!contract) throw new Error(`no contract registered for subject "${subject}"`);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new ContractError(subject, side, ['payload must be a JSON object']);
  }
  const instance = plainToInstance(contract[side] as new () => object, payload);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    // An empty DTO (HealthRequest) has no metadata; that is legal here, we already checked it is an object.
    forbidUnknownValues: false,
  });
  if (errors.length > 0) throw new ContractError(subject, side, flatten(errors));
}
