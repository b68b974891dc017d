import { Equals, IsIn, IsInt, Min } from 'class-validator';
import { SERVICES, type ServiceName } from './subjects';

/** `<service>.health` request: an empty object (Nest rejects a null/undefined payload). */
export class HealthRequest {}

/** `<service>.health` reply. */
export class HealthReply {
  @IsIn(SERVICES)
  service!: ServiceName;

  @Equals('ok')
  status!: 'ok';

  @IsInt()
  @Min(1)
  pid!: number;

  /** Whole seconds since the process started. */
  @IsInt()
  @Min(0)
  uptime_s!: number;
}
