import type { Node } from 'node-html-parser';
import type { HTMLElement } from './dom';
import type { PageMeta } from './metadata';
import { ContentChoice } from './content-choice';
import { NonContentRemover } from './content-clean';
import { ContentPruner } from './content-prune';
import { ContentState, type Stats } from './content-state';

/**
 * Finds the main content of a page the way reader views do (Readability, Boilerpipe-style text
 * density): drop what is never content, score paragraph containers by their text, commas and
 * class/id hints, penalise link density, take the best container plus qualifying siblings, then
 * prune furniture inside it. Semantic containers (<article>, <main>, role=main) win when the
 * extra text they hold looks like content rather than links.
 */

export type { Stats } from './content-state';

export class ContentFinder {
  readonly stats: Map<HTMLElement, Stats>;
  private readonly state: ContentState;

  constructor(
    private readonly body: HTMLElement,
    private readonly meta: PageMeta,
    private readonly relaxed: boolean,
    /**
     * Cleaning prunes the tree by replacing children lists; the first list each element had is
     * kept here, so the tree can be put back for a second pass without parsing the page again.
     */
    replaced: Map<HTMLElement, Node[]> = new Map(),
  ) {
    this.state = new ContentState(relaxed, replaced);
    this.stats = this.state.stats;
  }

  /** The main content as the element(s) to render, in document order. Mutates the tree. */
  find(title: string | null): HTMLElement[] {
    // 1. remove what is never content
    new NonContentRemover(this.body, this.meta, this.relaxed, this.state).run();
    // 2. measure
    this.state.measure(this.body);
    // 3. score and choose
    const nodes = new ContentChoice(this.body, this.meta, this.state).choose();
    // 4. prune inside the content
    const pruner = new ContentPruner(this.relaxed, this.state);
    for (const n of nodes) pruner.prep(n, false);
    if (title) pruner.dropTitleHeading(nodes, title);
    return nodes;
  }

  isDataTable(table: HTMLElement): boolean {
    return this.state.isDataTable(table);
  }
}

export { rawTextLength, visibleLength } from './content-measures';
