import { IsObject, IsOptional, IsString, Matches } from 'class-validator';

/**
 * `<service>.runs.start`: request a run of one of the service's kinds (named by `kind`, as the
 * list of kinds names it). The kind's decider checks the params (a 422 names the bound).
 */
export class StartRunRequest {
  @IsString() kind!: string;
  @IsObject() params!: Record<string, unknown>;
  /**
   * The run's id, chosen by the caller (the kind's prefix and a UUID): a request repeated with the
   * same id finds the run made the first time. Absent: a new id.
   */
  @IsOptional() @Matches(/^[a-z]+[_-][0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) id?: string;
}

export class StartRunReply {
  /** The new run's id, with the kind's prefix (`search_…`, `chatcmpl-…`). */
  @IsString() id!: string;
  /** Append position of the run's request (read-your-writes). */
  @IsString() position!: string;
}

/** `<service>.runs.cancel`: stop a run of the caller's team; work stops at once, what it found is kept. */
export class RunIdRequest {
  @IsString() kind!: string;
  @IsString() id!: string;
}

/** `<service>.runs.reopen`: give a completed run of a reopenable kind more work; `detail` says what. */
export class ReopenRunRequest {
  @IsString() kind!: string;
  @IsString() id!: string;
  @IsString() reason!: string;
  @IsObject() detail!: Record<string, unknown>;
}

export class RunCommandReply {
  /** Append position of what the command recorded, if anything. */
  @IsOptional() @IsString() position?: string;
}
