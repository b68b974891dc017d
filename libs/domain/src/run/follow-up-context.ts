/**
 * What a run that follows an earlier interaction starts from (API.md "Follow-ups"): recorded in
 * its request by the gateway, from the earlier run of the same team, so the run's log says what
 * it continued and a replay needs nothing else.
 */
export interface FollowUpContext {
  /** The interaction followed: a task run, deep search or chat completion of the same team. */
  interaction_id: string;
  /** What was asked there, after what it followed in turn: words that refer back resolve to its subject. */
  question: string;
  /** Its answer, cut to FOLLOW_UP_BOUNDS.answerChars (null: none). */
  answer: string | null;
  /** The pages it read (reused while fresh: the page cache serves them, nothing is fetched again). */
  read: string[];
}

export const FOLLOW_UP_BOUNDS = { questionChars: 4_000, answerChars: 2_000, read: 50 } as const;

/** A context within its bounds: the latest question kept, the earliest cut. */
export const boundedFollowUp = (context: FollowUpContext): FollowUpContext => ({
  interaction_id: context.interaction_id,
  question: context.question.slice(-FOLLOW_UP_BOUNDS.questionChars),
  answer: context.answer === null ? null : context.answer.slice(0, FOLLOW_UP_BOUNDS.answerChars),
  read: [...new Set(context.read)].slice(0, FOLLOW_UP_BOUNDS.read),
});
