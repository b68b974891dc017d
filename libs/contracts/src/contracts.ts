import type { ClassConstructor } from 'class-transformer';
import { ExtractReply, ExtractRequest } from './extraction.dto';
import {
  CancelSearchRunReply,
  CancelSearchRunRequest,
  CancelTaskRunReply,
  CancelTaskRunRequest,
  SearchPageReply,
  SearchPageRequest,
  StartChatReply,
  StartChatRequest,
  StartSearchRunReply,
  StartSearchRunRequest,
  StartTaskRunReply,
  StartTaskRunRequest,
} from './research.dto';
import { FetchPageReply, FetchPageRequest, SearchReply, SearchRequest } from './search.dto';
import { EnrichFindAllRequest, ExtendFindAllRequest, FindAllCommandReply, FindAllIdRequest, StartFindAllReply, StartFindAllRequest } from './findall.dto';
import { HealthReply, HealthRequest } from './health.dto';
import { CreateMonitorReply, CreateMonitorRequest, MonitorCommandReply, MonitorIdRequest, RunMonitorReply, UpdateMonitorRequest } from './monitors.dto';
import { SERVICES, subjects, type HealthSubject } from './subjects';

export interface Contract<Req extends object = object, Rep extends object = object> {
  request: ClassConstructor<Req>;
  reply: ClassConstructor<Rep>;
}

const healthContracts = Object.fromEntries(
  SERVICES.map((service) => [subjects.health(service), { request: HealthRequest, reply: HealthReply }]),
) as Record<HealthSubject, Contract<HealthRequest, HealthReply>>;

/**
 * Subject -> request and reply DTOs. To add a subject: its constant in subjects.ts, a DTO pair,
 * an entry here, and `fixtures/<subject>.request.json` + `.reply.json`; the contract suite
 * (test/contracts) then checks both fixtures and a live handler over both transports.
 */
export const CONTRACTS = {
  ...healthContracts,
  [subjects.extract]: { request: ExtractRequest, reply: ExtractReply },
  [subjects.read]: { request: ExtractRequest, reply: ExtractReply },
  [subjects.fetchPage]: { request: FetchPageRequest, reply: FetchPageReply },
  [subjects.search]: { request: SearchRequest, reply: SearchReply },
  [subjects.searchPage]: { request: SearchPageRequest, reply: SearchPageReply },
  [subjects.startSearchRun]: { request: StartSearchRunRequest, reply: StartSearchRunReply },
  [subjects.cancelSearchRun]: { request: CancelSearchRunRequest, reply: CancelSearchRunReply },
  [subjects.startTaskRun]: { request: StartTaskRunRequest, reply: StartTaskRunReply },
  [subjects.cancelTaskRun]: { request: CancelTaskRunRequest, reply: CancelTaskRunReply },
  [subjects.startChat]: { request: StartChatRequest, reply: StartChatReply },
  [subjects.startFindAll]: { request: StartFindAllRequest, reply: StartFindAllReply },
  [subjects.cancelFindAll]: { request: FindAllIdRequest, reply: FindAllCommandReply },
  [subjects.extendFindAll]: { request: ExtendFindAllRequest, reply: FindAllCommandReply },
  [subjects.enrichFindAll]: { request: EnrichFindAllRequest, reply: FindAllCommandReply },
  [subjects.createMonitor]: { request: CreateMonitorRequest, reply: CreateMonitorReply },
  [subjects.updateMonitor]: { request: UpdateMonitorRequest, reply: MonitorCommandReply },
  [subjects.pauseMonitor]: { request: MonitorIdRequest, reply: MonitorCommandReply },
  [subjects.resumeMonitor]: { request: MonitorIdRequest, reply: MonitorCommandReply },
  [subjects.deleteMonitor]: { request: MonitorIdRequest, reply: MonitorCommandReply },
  [subjects.runMonitor]: { request: MonitorIdRequest, reply: RunMonitorReply },
} satisfies Record<string, Contract>;

export type Subject = keyof typeof CONTRACTS;
export type RequestOf<S extends Subject> = InstanceType<(typeof CONTRACTS)[S]['request']>;
export type ReplyOf<S extends Subject> = InstanceType<(typeof CONTRACTS)[S]['reply']>;
