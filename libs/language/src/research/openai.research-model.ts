import type { Finding } from '@app/domain';
import type OpenAI from 'openai';
import type { TokenUsage } from '../language-model.port';
import { verifiedExcerpts } from '../openai.language-model';
import { extractiveReport, uniqueQueries } from './extractive.research-model';
import { completeJson, malformed, openAiClient } from '../openai-json';
import { FOLLOW_UP_SYSTEM, GRADE_SYSTEM, PLAN_SYSTEM, SYNTH_SYSTEM } from './openai-research.prompts';
import {
  citedIndexes,
  keepCitedClaims,
  oneLine,
  sourcesSection,
  stripInvalidCitations,
  type FollowUp,
  type ResearchCallOptions,
  type ResearchModel,
  type ResearchPassage,
  type ResearchSourceRef,
  type SynthesiseOptions,
} from '@app/research';

export interface OpenAiResearchModelOptions {
  /** `OPENAI_BASE_URL`, e.g. `https://api.openai.com/v1` or a local server's `/v1`. */
  baseURL: string;
  /** `OPENAI_API_KEY`; local servers often need none (a placeholder is sent). */
  apiKey?: string;
  /** `OPENAI_MODEL`. */
  model: string;
  /** Budget for one call, the client's retries included; default 120 000 (reports are long). */
  timeoutMs?: number;
  /** The client's own retries (408/409/429/5xx, connection errors); default 2. */
  maxRetries?: number;
  /** Unset by default: reasoning models reject any value. */
  temperature?: number;
  /** Each passage is cut to this before it is sent to `grade`; default 6 000. */
  maxPassageChars?: number;
}

const NO_USAGE: TokenUsage = { input: 0, output: 0 };
const CONFIDENCE = ['high', 'medium', 'low'] as const;
type Confidence = (typeof CONFIDENCE)[number];

/**
 * The research model over any OpenAI-compatible Chat Completions server, strict JSON-schema
 * answers, each checked: plan keeps the given queries first and caps the list; grade keeps only
 * quotes found verbatim in the passage of the source they name (invented ones are dropped and the
 * confidence lowered one step; nothing left = no finding); synthesise strips citations of unknown
 * sources, drops claim sentences left uncited and appends a canonical `## Sources` list. A report
 * citing nothing despite findings is a malformed_output error (retryable). Errors are
 * LanguageModelErrors with OpenAiLanguageModel's codes; no silent fallback.
 */
export class OpenAiResearchModel implements ResearchModel {
  readonly name = 'openai' as const;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiResearchModelOptions) {
    this.client = openAiClient(options, this.timeoutMs, 'OpenAiResearchModel');
  }

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? 120_000;
  }

  private call(name: string, schema: Record<string, unknown>, system: string, payload: unknown, signal?: AbortSignal) {
    const settings = { model: this.options.model, timeoutMs: this.timeoutMs, temperature: this.options.temperature };
    return completeJson(this.client, settings, name, schema, system, payload, signal);
  }

  async plan(
    prompt: string,
    queries: string[],
    maxSubqueries: number,
    options?: ResearchCallOptions,
  ): Promise<{ subqueries: string[]; usage: TokenUsage }> {
    const cap = Math.max(0, Math.floor(maxSubqueries));
    const given = uniqueQueries(queries.map(oneLine).filter(Boolean));
    // Nothing to derive: no call, no cost.
    if (given.length >= cap || !prompt.trim()) return { subqueries: given.slice(0, cap), usage: NO_USAGE };
    const schema = object({ subqueries: { type: 'array', items: { type: 'string' } } });
    const { value, usage } = await this.call(
      'plan',
      schema,
      PLAN_SYSTEM,
      { prompt, queries: given, max_subqueries: cap - given.length },
      options?.signal,
    );
    const list = (value as { subqueries?: unknown }).subqueries;
    if (!Array.isArray(list) || list.some((q) => typeof q !== 'string'))
      throw malformed('plan answer is not a list of strings');
    return {
      subqueries: uniqueQueries([...given, ...(list as string[]).map(oneLine).filter(Boolean)]).slice(0, cap),
      usage,
    };
  }

  async grade(
    subquery: string,
    passages: ResearchPassage[],
    options?: ResearchCallOptions,
  ): Promise<{ finding: Finding | null; usage: TokenUsage }> {
    if (passages.length === 0 || !subquery.trim()) return { finding: null, usage: NO_USAGE };
    const sources = [...new Set(passages.map((p) => p.source))];
    const cap = this.options.maxPassageChars ?? 6_000;
    const schema = object({
      answerable: { type: 'boolean' },
      answer: { type: 'string' },
      confidence: { type: 'string', enum: [...CONFIDENCE] },
      evidence: {
        type: 'array',
        // The enum keeps the model from citing sources it was not given.
        items: object({ source: { type: 'integer', enum: sources }, quote: { type: 'string' } }),
      },
    });
    const payload = {
      subquery,
      passages: passages.map((p) => ({ source: p.source, title: p.title, url: p.url, text: p.text.slice(0, cap) })),
    };
    const { value, usage } = await this.call('grade', schema, GRADE_SYSTEM, payload, options?.signal);
    const answer = value as { answerable?: unknown; answer?: unknown; confidence?: unknown; evidence?: unknown };
    if (
      typeof answer.answerable !== 'boolean' ||
      typeof answer.answer !== 'string' ||
      !CONFIDENCE.includes(answer.confidence as Confidence) ||
      !Array.isArray(answer.evidence)
    ) {
      throw malformed(
        `grade answer is not {answerable, answer, confidence, evidence}: ${JSON.stringify(value).slice(0, 200)}`,
      );
    }
    if (!answer.answerable) return { finding: null, usage };
    const evidence: Finding['evidence'] = [];
    let invented = 0;
    for (const item of answer.evidence as Array<{ source?: unknown; quote?: unknown }>) {
      if (typeof item?.source !== 'number' || typeof item.quote !== 'string')
        throw malformed(`grade evidence is not {source, quote}: ${JSON.stringify(item).slice(0, 200)}`);
      const quote = verbatim(item.quote, item.source, passages);
      if (!quote) invented++;
      else if (!evidence.some((e) => e.source === item.source && e.quote === quote))
        evidence.push({ source: item.source, quote });
    }
    // An answer with no verbatim support is not a finding, however confident the model is.
    if (evidence.length === 0) return { finding: null, usage };
    const stated = answer.confidence as Confidence;
    const confidence = invented > 0 ? CONFIDENCE[Math.min(2, CONFIDENCE.indexOf(stated) + 1)]! : stated;
    return {
      finding: {
        subquery,
        answer: oneLine(answer.answer) || evidence.map((e) => e.quote).join(' '),
        citations: [...new Set(evidence.map((e) => e.source))],
        confidence,
        evidence,
      },
      usage,
    };
  }

  async followUp(
    question: string,
    passages: ResearchPassage[],
    max: number,
    options?: ResearchCallOptions,
  ): Promise<{ followUps: FollowUp[]; usage: TokenUsage }> {
    const cap = Math.max(0, Math.floor(max));
    if (cap === 0 || passages.length === 0 || !question.trim()) return { followUps: [], usage: NO_USAGE };
    const sources = [...new Set(passages.map((p) => p.source))];
    const limit = this.options.maxPassageChars ?? 6_000;
    const schema = object({
      follow_ups: {
        type: 'array',
        items: object({
          question: { type: 'string' },
          restates: { type: 'boolean' },
          source: { type: 'integer', enum: sources },
          quote: { type: 'string' },
        }),
      },
    });
    const payload = {
      question,
      max_follow_ups: cap,
      passages: passages.map((p) => ({ source: p.source, title: p.title, url: p.url, text: p.text.slice(0, limit) })),
    };
    const { value, usage } = await this.call('follow_up', schema, FOLLOW_UP_SYSTEM, payload, options?.signal);
    const list = (value as { follow_ups?: unknown }).follow_ups;
    if (!Array.isArray(list))
      throw malformed(`follow-up answer has no follow_ups list: ${JSON.stringify(value).slice(0, 200)}`);
    const followUps: FollowUp[] = [];
    for (const item of list as Array<{ question?: unknown; restates?: unknown; source?: unknown; quote?: unknown }>) {
      if (
        typeof item?.question !== 'string' ||
        typeof item.restates !== 'boolean' ||
        typeof item.source !== 'number' ||
        typeof item.quote !== 'string'
      ) {
        throw malformed(`follow-up is not {question, restates, source, quote}: ${JSON.stringify(item).slice(0, 200)}`);
      }
      // A follow-up must come from the evidence: one whose quote is not in the passage it names is invented.
      const quote = verbatim(item.quote, item.source, passages);
      const subquery = oneLine(item.question);
      if (
        !quote ||
        !subquery ||
        uniqueQueries([question, ...followUps.map((f) => f.subquery), subquery]).length !== followUps.length + 2
      )
        continue;
      followUps.push({ subquery, restates: item.restates, via: { source: item.source, quote } });
    }
    return { followUps: followUps.slice(0, cap), usage };
  }

  async synthesise(
    prompt: string,
    findings: Finding[],
    sources: ResearchSourceRef[],
    options?: SynthesiseOptions,
  ): Promise<{ report: string; usage: TokenUsage }> {
    const valid = new Set(sources.map((s) => s.index));
    const supported = findings.filter((f) => f.evidence.some((e) => valid.has(e.source)));
    // Nothing to write but gap notes: the deterministic report says so without a call.
    if (supported.length === 0)
      return {
        report: extractiveReport(
          prompt,
          findings,
          sources,
          options?.subqueries,
          options?.restatements,
          options?.queries,
        ),
        usage: NO_USAGE,
      };
    const schema = object({ report: { type: 'string' } });
    const payload = {
      prompt,
      subqueries: options?.subqueries ?? [...new Set(findings.map((f) => f.subquery))],
      // Their findings answer the prompt: the summary paragraph should lead with them.
      follow_ups_restating_the_prompt: options?.restatements ?? [],
      findings: supported.map((f) => ({
        subquery: f.subquery,
        answer: f.answer,
        confidence: f.confidence,
        evidence: f.evidence.filter((e) => valid.has(e.source)),
      })),
      sources: sources.map((s) => ({ index: s.index, title: s.title, url: s.url })),
    };
    const { value, usage } = await this.call('report', schema, SYNTH_SYSTEM, payload, options?.signal);
    const raw = (value as { report?: unknown }).report;
    if (typeof raw !== 'string') throw malformed('report answer has no report string');
    let body = keepCitedClaims(stripInvalidCitations(raw, valid));
    const cited = citedIndexes(body);
    if (cited.length === 0) throw malformed('the report cites none of the given sources');
    if (!/^#\s/.test(body)) body = `# ${oneLine(prompt) || 'Research report'}\n\n${body}`;
    return { report: `${body}\n\n${sourcesSection(cited, sources)}\n`, usage };
  }
}

/** The quote as the passage's own characters, when that source's passage contains it. */
function verbatim(quote: string, source: number, passages: ResearchPassage[]): string | undefined {
  for (const p of passages) {
    if (p.source !== source) continue;
    const found = verifiedExcerpts([quote], p.text, Number.POSITIVE_INFINITY)[0];
    if (found) return found;
  }
  return undefined;
}

/** Strict mode wants every property required and no others. */
function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}
