import type { RunKind } from './run/run-kind';
import { crawlRuns } from './crawl/crawl.kind';
import { chatRuns } from './chat/chat.kind';
import { findAllRuns } from './findall/findall.kind';
import { searchRuns } from './search-run/search-run.kind';
import { taskRuns } from './task-run/task-run.kind';

/**
 * The list of kinds: every run kind of the service, each declared once in its folder. The
 * workers, the services' bus handlers, the projections, the webhooks and the gateway's routes and
 * sockets derive from it (a process can be given another list: CoreModule.forRoot's `kinds`).
 */
export const RUN_KINDS: readonly RunKind[] = [searchRuns, taskRuns, chatRuns, findAllRuns, crawlRuns];
