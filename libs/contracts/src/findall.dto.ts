import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsOptional, IsString, Max, Min, ValidateIf, ValidateNested } from 'class-validator';

const nullable = (_: object, value: unknown) => value !== null && value !== undefined;

export class FindAllParamsDto {
  @IsString() query!: string;
  @ValidateIf(nullable) @IsArray() @IsString({ each: true }) fields!: string[] | null;
  @ValidateIf(nullable) @IsObject() output_schema!: Record<string, unknown> | null;
  @IsInt() @Min(1) @Max(100) limit!: number;
  @ValidateIf(nullable) @IsString() webhook!: string | null;
}

/** `findall.start`: request a FindAll run (the findall service owns it from here). */
export class StartFindAllRequest {
  @IsObject() @ValidateNested() @Type(() => FindAllParamsDto) params!: FindAllParamsDto;
}

export class StartFindAllReply {
  @IsString() findall_id!: string;
  @IsString() position!: string;
}

/** `findall.cancel`. */
export class FindAllIdRequest {
  @IsString() findall_id!: string;
}

/** `findall.extend`: more entities from a completed run. */
export class ExtendFindAllRequest {
  @IsString() findall_id!: string;
  @IsInt() @Min(1) @Max(100) additional_limit!: number;
}

/** `findall.enrich`: more fields for every matched entity of a completed run. */
export class EnrichFindAllRequest {
  @IsString() findall_id!: string;
  @IsOptional() @ValidateIf(nullable) @IsArray() @IsString({ each: true }) fields?: string[] | null;
  @IsOptional() @ValidateIf(nullable) @IsObject() output_schema?: Record<string, unknown> | null;
}

export class FindAllCommandReply {
  @IsOptional() @IsString() position?: string;
}
