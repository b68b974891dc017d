import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Min, ValidateIf, ValidateNested } from 'class-validator';
import { TASK_PROCESSORS, type TaskProcessor } from '@app/domain/task-run/task-run.events';

import { AdvancedSettingsDto, SEARCH_CATEGORIES, SEARCH_FRESHNESS } from './search.dto';

const nullable = (_: object, value: unknown) => value !== null && value !== undefined;

export class DeepSearchParamsDto {
  @IsArray() @IsString({ each: true }) queries!: string[];
  @ValidateIf(nullable) @IsString() prompt!: string | null;
  @ValidateIf(nullable) @IsString() objective!: string | null;
  @IsInt() @Min(1) limit!: number;
  @IsString() country!: string;
  @IsString() language!: string;
  @IsInt() @Min(1) max_subqueries!: number;
  @IsInt() @Min(1) max_fetches!: number;
  @ValidateIf(nullable) @IsString() webhook!: string | null;
  @IsOptional() @ValidateIf(nullable) @IsIn(SEARCH_CATEGORIES) category?: (typeof SEARCH_CATEGORIES)[number] | null;
  @IsOptional() @ValidateIf(nullable) @IsIn(SEARCH_FRESHNESS) freshness?: (typeof SEARCH_FRESHNESS)[number] | null;
  @IsOptional() @ValidateIf(nullable) @IsArray() @IsString({ each: true }) include_domains?: string[] | null;
  @IsOptional() @ValidateIf(nullable) @IsArray() @IsString({ each: true }) exclude_domains?: string[] | null;
  @IsOptional() @ValidateIf(nullable) @IsInt() @Min(1) max_excerpt_chars?: number | null;
  @IsOptional() @ValidateIf(nullable) @ValidateNested() @Type(() => AdvancedSettingsDto) advanced_settings?: AdvancedSettingsDto | null;
}

/** `research.start`: request a deep search run (the research service owns it from here). */
export class StartSearchRunRequest {
  @IsObject() @ValidateNested() @Type(() => DeepSearchParamsDto) params!: DeepSearchParamsDto;
}

export class StartSearchRunReply {
  @IsString() search_id!: string;
  /** Append position of SearchRunRequested (read-your-writes). */
  @IsString() position!: string;
}

/** `research.cancel`: stop a run; work stops at once, results so far are kept. */
export class CancelSearchRunRequest {
  @IsString() search_id!: string;
}

export class CancelSearchRunReply {
  @IsOptional() @IsString() position?: string;
}

/** `search.page`: one provider page, uncharged (for the research pipeline, which charges its run). */
export class SearchPageRequest {
  @IsString() query!: string;
  @IsInt() @Min(1) page!: number;
  @IsInt() @Min(1) limit!: number;
  @IsString() country!: string;
  @IsString() language!: string;
  /** Filters of a deep run, applied as a synchronous search applies them (natively or after the fact). */
  @IsOptional() @ValidateIf(nullable) @IsIn(SEARCH_CATEGORIES) category?: (typeof SEARCH_CATEGORIES)[number] | null;
  @IsOptional() @ValidateIf(nullable) @IsIn(SEARCH_FRESHNESS) freshness?: (typeof SEARCH_FRESHNESS)[number] | null;
  @IsOptional() @ValidateIf(nullable) @IsArray() @IsString({ each: true }) include_domains?: string[] | null;
  @IsOptional() @ValidateIf(nullable) @IsArray() @IsString({ each: true }) exclude_domains?: string[] | null;
  @IsOptional() @ValidateIf(nullable) @IsString() after_date?: string | null;
  @IsOptional() @ValidateIf(nullable) @IsString() before_date?: string | null;
}

export class SearchPageHit {
  @IsString() url!: string;
  @IsString() title!: string;
  @IsString() snippet!: string;
  @ValidateIf(nullable) @IsString() date!: string | null;
  @ValidateIf(nullable) @IsString() category!: string | null;
  @ValidateIf(nullable) @IsString() language!: string | null;
  @IsNumber() score!: number;
  @IsOptional() @IsString() content?: string;
}

export class SearchPageReply {
  @IsArray() @ValidateNested({ each: true }) @Type(() => SearchPageHit) hits!: SearchPageHit[];
  @IsInt() page!: number;
  @IsBoolean() hasMore!: boolean;
  @IsArray() @IsString({ each: true }) warnings!: string[];
}

export class TaskParamsDto {
  @IsString() task!: string;
  @IsIn(TASK_PROCESSORS) processor!: TaskProcessor;
  /** Normalised: `{type: json, json_schema}`, `{type: text}` or `{type: auto}`. */
  @IsObject() output_schema!: { type: 'json'; json_schema: Record<string, unknown> } | { type: 'text' } | { type: 'auto' };
  @ValidateIf(nullable) @IsObject() metadata!: Record<string, string> | null;
  @ValidateIf(nullable) @IsString() webhook!: string | null;
}

/** `research.task.start`: request a task run (the research service owns it from here). */
export class StartTaskRunRequest {
  @IsObject() @ValidateNested() @Type(() => TaskParamsDto) params!: TaskParamsDto;
}

export class StartTaskRunReply {
  @IsString() task_id!: string;
  /** Append position of TaskRunRequested (read-your-writes). */
  @IsString() position!: string;
}

/** `research.task.cancel`: stop a task run; work stops at once. */
export class CancelTaskRunRequest {
  @IsString() task_id!: string;
}

export class CancelTaskRunReply {
  @IsOptional() @IsString() position?: string;
}

export class ChatMessageDto {
  @IsIn(['system', 'developer', 'user', 'assistant', 'tool']) role!: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  @IsString() content!: string;
}

export class ChatParamsDto {
  @IsString() model!: string;
  @IsIn(TASK_PROCESSORS) budget!: TaskProcessor;
  @IsArray() @ValidateNested({ each: true }) @Type(() => ChatMessageDto) messages!: ChatMessageDto[];
  @ValidateIf(nullable) @IsInt() @Min(1) max_tokens!: number | null;
  @ValidateIf(nullable) @IsNumber() temperature!: number | null;
  @IsObject() response_format!: { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown> } };
  @IsBoolean() stream!: boolean;
}

/** `research.chat.start`: request a chat completion (a run of kind chat). */
export class StartChatRequest {
  @IsObject() @ValidateNested() @Type(() => ChatParamsDto) params!: ChatParamsDto;
}

export class StartChatReply {
  @IsString() id!: string;
  /** Append position of ChatRunRequested. */
  @IsString() position!: string;
}
