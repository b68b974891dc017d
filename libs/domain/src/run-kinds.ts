import type { RunKind } from './run/run-kind';
import { chatRuns } from './chat/chat.kind';
import { findAllRuns } from './findall/findall.kind';
import { searchRuns } from './search-run/search-run.kind';
import { taskRuns } from './task-run/task-run.kind';

/**
 * Every run kind of the service. Workers count all of them against the per-team limit; the
 * webhooks service announces the end of any of them; the gateway serves their streams.
 */
export const RUN_KINDS: readonly RunKind[] = [searchRuns, taskRuns, chatRuns, findAllRuns];
