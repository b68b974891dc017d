import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { SERVICES, type ServiceName } from './subjects';

/** `<service>.health` request: an empty object (Nest rejects a null/undefined payload). */
export class HealthRequest {}

export const HEALTH_STATUSES = ['ok', 'starting', 'failed'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** `<service>.health` reply. */
export class HealthReply {
  @IsIn(SERVICES)
  service!: ServiceName;

  /**
   * `ok`: it answers. `starting`: it answers its health but not yet its work (the search service
   * while its index is read or first crawled). `failed`: it never will (its index could not be built).
   */
  @IsIn(HEALTH_STATUSES)
  status!: HealthStatus;

  /** Why it is not `ok`. */
  @IsOptional()
  @IsString()
  @MaxLength(1_000)
  detail?: string;

  @IsInt()
  @Min(1)
  pid!: number;

  /** Whole seconds since the process started. */
  @IsInt()
  @Min(0)
  uptime_s!: number;
}
