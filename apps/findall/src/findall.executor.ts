import {
  type RecordedCommand,
  type Candidate,
  type FieldBasisEntry,
  findAllLimit,
  FINDALL_PREVIEW_CANDIDATES,
  findAllRuns,
  type FindAllSchema,
  type FindAllState,
  quantityOf,
} from '@app/domain';
import { createHash, randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { BusClient } from '@app/bus';
import { callBus, subjects } from '@app/contracts';
import { LANGUAGE_MODEL, type LanguageModel } from '@app/language';
import { checkCondition, deriveFindAllSchema, type EntityPage, entityKey, entityNameOf, listRows } from '@app/research';
import { normalizeUrl } from '@app/urls';
import { type RunContext, type RunExecutor, RunExecutorOf } from '@app/runs';

/**
 * Pages read per call to the extraction service: two rounds of the fetcher's default per-host
 * concurrency (4), so candidates listed on one site are read without a round half empty (5 took
 * two rounds for five pages), while a run still records its checks, and stops at its limit, every
 * few pages.
 */
const READ_BATCH = 8;
/** A "next page" chain is followed at most this far (a loop guard, not a budget). */
const MAX_LIST_PAGES = 50;

type Running = Exclude<FindAllState, { status: 'absent' }>;

const candidateId = (url: string) =>
  `cand_${createHash('sha256').update(normalizeUrl(url)).digest('hex').slice(0, 16)}`;

/** The schema entities are filled against: the caller's output_schema, else one string per field name. */
export function entitySchema(
  fields: string[] | null,
  outputSchema: Record<string, unknown> | null,
): Record<string, unknown> | null {
  if (outputSchema) return outputSchema;
  if (!fields?.length) return null;
  const properties = Object.fromEntries(
    fields.map((field) => [
      field,
      /year|count|employees|number|size/i.test(field)
        ? { type: 'integer', description: field.replace(/_/g, ' ') }
        : { type: 'string', description: field.replace(/_/g, ' ') },
    ]),
  );
  return { type: 'object', properties };
}

/**
 * FindAll runs: derive the entity type and conditions from the query; generate candidates from
 * search queries and list-like pages (tables, directories, following "next page" to the end);
 * check every condition on the candidate's own page, recording the deciding sentence; fill the
 * requested fields with a cited basis; stop at the limit or when candidates run out. Every fact
 * is recorded as it happens, so a resumed run (or an extend) continues where this one stopped and
 * checks no candidate twice.
 */
@RunExecutorOf(findAllRuns)
export class FindAllExecutor implements RunExecutor<typeof findAllRuns> {
  readonly kind = findAllRuns;

  constructor(
    private readonly bus: BusClient,
    @Inject(LANGUAGE_MODEL) private readonly model: LanguageModel,
  ) {}

  async execute(run: RunContext<FindAllState, RecordedCommand<typeof findAllRuns>>): Promise<void> {
    if (run.state.status === 'absent') throw new Error(`FindAll run ${run.runId} has no request`);
    const state: Running = run.state;
    const pages = new Map<string, EntityPage>();
    const schema: FindAllSchema = state.progress.schema ?? deriveFindAllSchema(state.params.query);
    if (!state.progress.schema) await run.record({ type: 'RecordSchema', schema });
    // A preview fills no field: it shows which candidates match, quickly.
    const preview = state.params.generator === 'preview';
    const fieldSchema = preview ? null : entitySchema(state.params.fields, state.params.output_schema);

    // Enrichment asked for after completion: fill the new fields of every matched entity.
    for (const enrichment of state.progress.enrichments) {
      const todo = state.progress.candidates.filter(
        (c) => c.match_status === 'matched' && !enrichment.done.includes(c.candidate_id),
      );
      const extra = entitySchema(enrichment.fields, enrichment.output_schema);
      if (!extra) continue;
      await this.read(
        run,
        todo.map((c) => c.url),
        pages,
        'text',
      );
      for (const candidate of todo) {
        if (run.stopped()) return;
        const { output, basis } = await this.fill(candidate, extra, pages, run.signal);
        await run.record({
          type: 'RecordEnriched',
          enrichment_id: enrichment.enrichment_id,
          candidate_id: candidate.candidate_id,
          output,
          basis,
        });
      }
    }
    if (state.progress.termination) return;

    const limit = findAllLimit(state.params, state.progress);
    let matched = state.progress.candidates.filter((c) => c.match_status === 'matched').length;
    // Candidates already found, and the entities the caller excluded: neither is added (so an
    // excluded one is never checked, returned or charged), in this execution and after an extend.
    const exclude = state.params.exclude_list ?? [];
    const known = new Set([
      ...state.progress.candidates.map((c) => normalizeUrl(c.url)),
      ...exclude.flatMap((e) => (e.url ? [normalizeUrl(e.url)] : [])),
    ]);
    const names = new Set([
      ...state.progress.candidates.map((c) => entityKey(c.name)),
      ...exclude.flatMap((e) => (e.name ? [entityKey(e.name)] : [])).filter(Boolean),
    ]);
    const pending: Candidate[] = state.progress.candidates.filter((c) => c.match_status === 'pending');
    let found = state.progress.candidates.length;
    /** A preview stops generating once it knows its candidates, and ends once they are checked. */
    const enough = () => preview && found >= FINDALL_PREVIEW_CANDIDATES;
    const done = () => matched >= limit || (enough() && pending.length === 0);

    /** Checks pending candidates in the order found; true once the limit is reached (or a preview's candidates are checked). */
    const checkPending = async (): Promise<boolean> => {
      while (pending.length > 0) {
        if (matched >= limit) return true;
        // A preview reads its few candidates in one go: it is meant to answer in seconds.
        const size = preview ? FINDALL_PREVIEW_CANDIDATES : READ_BATCH;
        const batch = pending.splice(0, size);
        await this.read(
          run,
          batch.map((c) => c.url),
          pages,
          'text',
          size,
        );
        for (const candidate of batch) {
          if (run.stopped()) return true;
          if (matched >= limit) {
            pending.unshift(candidate);
            return true;
          }
          const page = pages.get(normalizeUrl(candidate.url)) ?? {
            url: candidate.url,
            title: candidate.name,
            text: candidate.description,
          };
          const reasons = schema.conditions.map((condition) => checkCondition(condition, page));
          const ok = reasons.length > 0 && reasons.every((r) => r.holds);
          const filled =
            ok && fieldSchema ? await this.fill(candidate, fieldSchema, pages, run.signal) : { output: {}, basis: [] };
          await run.record({
            type: 'RecordCheck',
            candidate_id: candidate.candidate_id,
            match_status: ok ? 'matched' : 'unmatched',
            reasons,
            output: filled.output,
            basis: filled.basis,
          });
          if (ok) matched++;
        }
      }
      return done();
    };

    const add = async (name: string, url: string, description: string) => {
      const key = normalizeUrl(url);
      const nameKey = entityKey(name);
      if (known.has(key) || (nameKey && names.has(nameKey)) || enough()) return;
      found++;
      known.add(key);
      if (nameKey) names.add(nameKey);
      const candidate = { candidate_id: candidateId(url), name, url, description };
      await run.record({ type: 'RecordCandidate', ...candidate });
      pending.push({ ...candidate, match_status: 'pending', reasons: [], output: {}, basis: [] });
    };

    // List pages read so far, in earlier executions and in this one: each is read once.
    const listsRead = new Set(state.progress.list_pages);
    if (await checkPending()) return this.stop(run, done());
    for (const query of schema.generator.queries) {
      if (run.stopped()) return;
      if (state.progress.queries.includes(query)) continue;
      await run.record({ type: 'RecordQuery', query });
      const page = await callBus(this.bus, subjects.searchPage, {
        query,
        page: 1,
        limit: 10,
        country: 'us',
        language: 'en',
        team_id: state.team_id,
      });
      const hits = page.hits.filter(
        (hit) => !listsRead.has(normalizeUrl(hit.url)) && !known.has(normalizeUrl(hit.url)),
      );
      // A hit that comes with its page text (the local index) is read from that text: it carries
      // no links, so it is taken as an entity page, not a list.
      for (const hit of hits)
        if (hit.content) pages.set(normalizeUrl(hit.url), { url: hit.url, title: hit.title, text: hit.content });
      // The hits are read a batch at a time as they are reached: a preview stops reading once it
      // knows its candidates.
      const markdown = new Map<string, EntityPage>();
      const attempted = new Set<string>();
      const readFrom = async (at: number) => {
        const batch = hits
          .slice(at)
          .filter((h) => !h.content && !attempted.has(normalizeUrl(h.url)))
          .slice(0, READ_BATCH)
          .map((h) => h.url);
        for (const url of batch) attempted.add(normalizeUrl(url));
        await this.read(run, batch, markdown, 'markdown');
      };
      for (const [at, hit] of hits.entries()) {
        if (run.stopped()) return;
        if (enough()) break;
        if (!hit.content && !attempted.has(normalizeUrl(hit.url))) await readFrom(at);
        let doc = markdown.get(normalizeUrl(hit.url)) ?? pages.get(normalizeUrl(hit.url));
        const { rows } = doc && !hit.content ? listRows(doc.text) : { rows: [] };
        if (rows.length === 0) {
          // Not a list: the hit itself may be an entity, named from its title without the page's own words.
          if (doc && schema.conditions.length > 0) await add(entityNameOf(hit.title), hit.url, hit.snippet);
          continue;
        }
        // A list: every row is a candidate; "next page" is followed to the end.
        let listUrl: string | null = hit.url;
        for (let n = 0; listUrl && doc && n < MAX_LIST_PAGES; n++) {
          const listed = listRows(doc.text);
          listsRead.add(normalizeUrl(listUrl));
          await run.record({ type: 'RecordListPage', url: normalizeUrl(listUrl), rows: listed.rows.length });
          for (const row of listed.rows) await add(row.name, row.url, row.description);
          listUrl = listed.next && !listsRead.has(normalizeUrl(listed.next)) && !enough() ? listed.next : null;
          doc = listUrl
            ? (await this.read(run, [listUrl], new Map(), 'markdown')).get(normalizeUrl(listUrl))
            : undefined;
        }
        if (await checkPending()) return this.stop(run, done());
      }
      if (await checkPending()) return this.stop(run, done());
    }
    if (await checkPending()) return this.stop(run, done());
    await this.stop(run, false);
  }

  private async stop(
    run: RunContext<FindAllState, RecordedCommand<typeof findAllRuns>>,
    limitReached: boolean,
  ): Promise<void> {
    if (run.stopped()) return;
    await run.record({ type: 'RecordTermination', reason: limitReached ? 'limit_reached' : 'candidates_exhausted' });
  }

  /**
   * Reads pages into `into`, by normalised URL. The read is uncharged (the run charges its own
   * SKUs) but for the pages it rendered in the browser: recorded, and so charged, per read call.
   */
  private async read(
    run: RunContext<FindAllState, RecordedCommand<typeof findAllRuns>>,
    urls: string[],
    into: Map<string, EntityPage>,
    format: 'text' | 'markdown',
    batch = READ_BATCH,
  ): Promise<Map<string, EntityPage>> {
    const missing = [...new Set(urls)].filter((u) => !into.has(normalizeUrl(u)));
    for (let at = 0; at < missing.length; at += batch) {
      const reply = await callBus(
        this.bus,
        subjects.read,
        {
          urls: missing.slice(at, at + batch),
          objective: null,
          format,
          full_content: true,
          excerpts: false,
          max_chars_per_result: null,
        },
        { timeoutMs: 60_000 },
      );
      const renders = quantityOf(reply.usage, 'sku_render');
      if (renders > 0) await run.record({ type: 'RecordRenders', read_id: randomUUID(), renders });
      for (const result of reply.results)
        if (result.content && !result.error)
          into.set(normalizeUrl(result.url), {
            url: result.url,
            title: result.title ?? result.url,
            text: result.content,
          });
    }
    return into;
  }

  private async fill(
    candidate: Candidate,
    schema: Record<string, unknown>,
    pages: Map<string, EntityPage>,
    signal: AbortSignal,
  ): Promise<{ output: Record<string, unknown>; basis: FieldBasisEntry[] }> {
    const page = pages.get(normalizeUrl(candidate.url));
    const filled = await this.model.fillSchema({ task: candidate.name, schema, documents: page ? [page] : [] }, signal);
    // An entity is a row of fields: anything else the filler makes of a schema fills none.
    const output =
      typeof filled.output === 'object' && filled.output !== null && !Array.isArray(filled.output)
        ? (filled.output as Record<string, unknown>)
        : {};
    return { output, basis: output === filled.output ? filled.basis : [] };
  }
}
