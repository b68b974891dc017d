/** How much a candidate's kind weighs it: of the kind asked, the noun asked, or of another kind. */
/** A name compromise sees as of the kind asked weighs this much more (and one of another kind this much less). */
export const KIND_FIT = 1.25;
/** A candidate the pages describe as the noun asked for ("which magazine": "Quillmark is a … magazine") weighs this much more. */
export const NOUN_FIT = 1.5;

/** The fit of a name that is not of the kind asked (an event for "where", a stadium for "who"). */
export const NOT_OF_KIND = 0.5;

/** A candidate answer as its sentence writes it, weighed by how well its kind fits (1: no more, no less). */
export interface Candidate {
  text: string;
  fit: number;
  person?: boolean;
  /** The name a numeral stands for ("XCII" of "Harvest Cup XCII"). */
  whole?: string;
}
