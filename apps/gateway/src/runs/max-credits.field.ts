import { MAX_RUN_CREDITS } from '@app/domain';
import { IntField } from '@app/platform';

/**
 * `max_credits` of a run that charges as it works (deep search, task, FindAll, crawl; API.md
 * "Budgets"): the run never charges past it and ends `budget_exhausted` with what it has.
 */
export const MaxCreditsField = (only = '') =>
  IntField({
    ge: 1,
    le: MAX_RUN_CREDITS,
    optional: true,
    nullable: true,
    description: `${only}The run's budget in credits: it never charges past it, and a run whose next step would pass it ends completed with termination_reason "budget_exhausted" and what it has`,
  });

/** The budget as a run's params carry it: present only when given. */
export const maxCreditsParam = (body: { max_credits?: number | null }): { max_credits?: number } =>
  body.max_credits ? { max_credits: body.max_credits } : {};
