import { Injectable } from '@nestjs/common';
import {
  chatRuns,
  type FollowUpContext,
  followUpOfChat,
  followUpOfSearch,
  followUpOfTask,
  searchRuns,
  taskRuns,
} from '@app/domain';
import { ApiError, conflict, notFound, StrField } from '@app/platform';
import type { AuthContext } from '../auth/auth.context';
import { RunHttp } from './run-http';

/** `previous_interaction_id` of a task run or deep search (API.md "Follow-ups"). */
export const PreviousInteractionField = () =>
  StrField({
    optional: true,
    nullable: true,
    minLength: 1,
    maxLength: 200,
    description:
      "The interaction_id of a completed task run, deep search or chat completion of your team: this run starts from its question, its answer and the pages it read (words that refer back, like 'it' or 'its', name its subject)",
  });

/**
 * The context a follow-up starts from, read from the run it follows: a task run, deep search or
 * chat completion of the caller's team (404 otherwise, as for the run itself), completed (409).
 */
@Injectable()
export class FollowUps {
  constructor(private readonly runs: RunHttp) {}

  async contextFor(auth: AuthContext, interactionId: string): Promise<FollowUpContext> {
    const missing = () =>
      notFound(`previous_interaction_id ${interactionId}: no task run, deep search or chat completion of yours`);
    const read = async <T>(load: () => Promise<T>): Promise<T> => {
      try {
        return await load();
      } catch (error) {
        if (error instanceof ApiError && error.getStatus() === 404) throw missing();
        throw error;
      }
    };
    const notEnded = (status: string) =>
      conflict(`previous_interaction_id ${interactionId} is ${status}: a run can follow it once it has completed`);
    if (interactionId.startsWith(taskRuns.idPrefix)) {
      const state = await read(() => this.runs.owned(taskRuns, auth, interactionId));
      if (state.status !== 'completed') throw notEnded(state.status);
      return followUpOfTask(state);
    }
    if (interactionId.startsWith(searchRuns.idPrefix)) {
      const state = await read(() => this.runs.owned(searchRuns, auth, interactionId));
      if (state.status !== 'completed') throw notEnded(state.status);
      return followUpOfSearch(state);
    }
    if (interactionId.startsWith(chatRuns.idPrefix)) {
      const state = await read(() => this.runs.owned(chatRuns, auth, interactionId));
      if (state.status !== 'completed') throw notEnded(state.status);
      return followUpOfChat(state);
    }
    throw missing();
  }
}
