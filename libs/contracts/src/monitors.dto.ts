import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Min, ValidateIf, ValidateNested } from 'class-validator';

const nullable = (_: object, value: unknown) => value !== null && value !== undefined;

export class MonitorSettingsDto {
  @IsString() query!: string;
  /** A page monitor's page (its query echoes it); absent or null for a query monitor. */
  @IsOptional() @ValidateIf(nullable) @IsString() url?: string | null;
  @IsIn(['hourly', 'daily', 'weekly']) cadence!: 'hourly' | 'daily' | 'weekly';
  @ValidateIf(nullable) @IsString() cron!: string | null;
  @IsIn(['diff', 'snapshot']) mode!: 'diff' | 'snapshot';
  @ValidateIf(nullable) @IsString() filter_prompt!: string | null;
  @IsArray() @IsIn(['change', 'match', 'error'], { each: true }) notify_on!: ('change' | 'match' | 'error')[];
  @ValidateIf(nullable) @IsString() webhook!: string | null;
  @IsInt() @Min(1) webhook_max_attempts!: number;
  @IsInt() @Min(0) webhook_backoff_seconds!: number;
  @IsString() country!: string;
  @IsString() language!: string;
  @IsObject() metadata!: Record<string, unknown>;
}

/** Some settings (PATCH): every field optional. */
export class MonitorSettingsPatchDto {
  @IsOptional() @IsString() query?: string;
  @IsOptional() @ValidateIf(nullable) @IsString() url?: string | null;
  @IsOptional() @IsIn(['hourly', 'daily', 'weekly']) cadence?: 'hourly' | 'daily' | 'weekly';
  @IsOptional() @ValidateIf(nullable) @IsString() cron?: string | null;
  @IsOptional() @IsIn(['diff', 'snapshot']) mode?: 'diff' | 'snapshot';
  @IsOptional() @ValidateIf(nullable) @IsString() filter_prompt?: string | null;
  @IsOptional() @IsArray() @IsIn(['change', 'match', 'error'], { each: true }) notify_on?: (
    'change' | 'match' | 'error'
  )[];
  @IsOptional() @ValidateIf(nullable) @IsString() webhook?: string | null;
  @IsOptional() @IsInt() @Min(1) webhook_max_attempts?: number;
  @IsOptional() @IsInt() @Min(0) webhook_backoff_seconds?: number;
  @IsOptional() @IsString() country?: string;
  @IsOptional() @IsString() language?: string;
  @IsOptional() @IsObject() metadata?: Record<string, unknown>;
}

/** `monitors.create`. The webhook secret crosses the bus sealed (AES-256-GCM under SECRETS_KEY), never in clear. */
export class CreateMonitorRequest {
  @IsObject() @ValidateNested() @Type(() => MonitorSettingsDto) settings!: MonitorSettingsDto;
  @IsIn(['active', 'paused']) status!: 'active' | 'paused';
  @ValidateIf(nullable) @IsString() sealed_webhook_secret!: string | null;
}

export class CreateMonitorReply {
  @IsString() monitor_id!: string;
  @IsString() position!: string;
}

/** `monitors.update`: a partial change; `sealed_webhook_secret` absent = unchanged, null = cleared. */
export class UpdateMonitorRequest {
  @IsString() monitor_id!: string;
  @IsObject() @ValidateNested() @Type(() => MonitorSettingsPatchDto) settings!: MonitorSettingsPatchDto;
  @IsOptional() @ValidateIf(nullable) @IsString() sealed_webhook_secret?: string | null;
  @IsOptional() @IsIn(['active', 'paused']) status?: 'active' | 'paused';
}

/** `monitors.pause`, `monitors.resume`, `monitors.delete`. */
export class MonitorIdRequest {
  @IsString() monitor_id!: string;
}

export class MonitorCommandReply {
  @IsOptional() @IsString() position?: string;
}

/** `monitors.run`: run now (also when paused); the event is recorded when the run ends. */
export class RunMonitorReply {
  @IsString() event_id!: string;
  @IsString() position!: string;
}
