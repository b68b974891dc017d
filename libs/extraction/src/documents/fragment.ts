import { parse } from 'node-html-parser';
import { toHtml } from '../html/clean-html';
import { type HTMLElement, isElement } from '../html/dom';
import { type RenderContext, toMarkdown, toText } from '../html/render';

/**
 * Markdown, text and cleaned HTML of a whole HTML fragment (a Word file through mammoth, a PDF's
 * blocks): the same renderers as a page's main content, with no content finding (a document is
 * all content) and every table read as data.
 */
export function renderFragment(html: string, url: string): { markdown: string; text: string; html: string } {
  const root = parse(html, { comment: false });
  const nodes = root.childNodes.filter(isElement) as HTMLElement[];
  const ctx: RenderContext = { base: baseOf(url), isDataTable: () => true };
  return { markdown: toMarkdown(nodes, ctx), text: toText(nodes, ctx), html: toHtml(nodes, ctx) };
}

function baseOf(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
