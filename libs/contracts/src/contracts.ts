import type { ClassConstructor } from 'class-transformer';
import { ExtractReply, ExtractRequest, MapReply, MapRequest } from './extraction.dto';
import { SearchPageReply, SearchPageRequest } from './research.dto';
import { FetchPageReply, FetchPageRequest, SearchReply, SearchRequest } from './search.dto';
import { ReopenRunRequest, RunCommandReply, RunIdRequest, StartRunReply, StartRunRequest } from './runs.dto';
import { HealthReply, HealthRequest } from './health.dto';
import {
  CreateMonitorReply,
  CreateMonitorRequest,
  MonitorCommandReply,
  MonitorIdRequest,
  RunMonitorReply,
  UpdateMonitorRequest,
} from './monitors.dto';
import { runSubjects, SERVICES, subjects, type HealthSubject } from './subjects';

export interface Contract<Req extends object = object, Rep extends object = object> {
  request: ClassConstructor<Req>;
  reply: ClassConstructor<Rep>;
}

const healthContracts = Object.fromEntries(
  SERVICES.map((service) => [subjects.health(service), { request: HealthRequest, reply: HealthReply }]),
) as Record<HealthSubject, Contract<HealthRequest, HealthReply>>;

const research = runSubjects('research');
const findall = runSubjects('findall');
const extraction = runSubjects('extraction');
/** Run requests of the services that work runs; only FindAll has a reopenable kind (extend, enrich). */
const runContracts = {
  [research.start]: { request: StartRunRequest, reply: StartRunReply },
  [research.cancel]: { request: RunIdRequest, reply: RunCommandReply },
  [findall.start]: { request: StartRunRequest, reply: StartRunReply },
  [findall.cancel]: { request: RunIdRequest, reply: RunCommandReply },
  [findall.reopen]: { request: ReopenRunRequest, reply: RunCommandReply },
  [extraction.start]: { request: StartRunRequest, reply: StartRunReply },
  [extraction.cancel]: { request: RunIdRequest, reply: RunCommandReply },
} satisfies Record<string, Contract>;

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
  [subjects.map]: { request: MapRequest, reply: MapReply },
  [subjects.search]: { request: SearchRequest, reply: SearchReply },
  [subjects.searchPage]: { request: SearchPageRequest, reply: SearchPageReply },
  ...runContracts,
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
