import { ExtractiveLanguageModel } from './extractive.language-model';
import type { RerankDocument } from './language-model.port';
import { sentenceSpans, stem, tokenize } from '@app/text';

const docs: RerankDocument[] = [
  {
    id: 'bread',
    title: 'Banana bread recipe',
    text: 'Mash three ripe bananas, mix with flour, sugar and butter, then bake for an hour. The loaf keeps for days.',
  },
  {
    id: 'tokio',
    title: 'Tokio: an asynchronous Rust runtime',
    text: 'Tokio is an asynchronous runtime for the Rust programming language. It schedules tasks on a work-stealing thread pool.',
  },
  {
    id: 'battery',
    title: 'Recycling lithium-ion batteries',
    text: 'Electric vehicle batteries are recycled by shredding cells and recovering lithium, nickel and cobalt. Recycling plants are opening across Europe.',
  },
  {
    id: 'jvm',
    title: 'Inside the Java virtual machine',
    text: 'The JVM loads class files, verifies bytecode and compiles hot methods just in time. Garbage collection pauses are tuned with flags. The runtime exposes management beans.',
  },
];

const model = new ExtractiveLanguageModel();
const order = (results: Array<{ id: string; score: number }>) =>
  [...results].sort((a, b) => b.score - a.score).map((r) => r.id);

describe('ExtractiveLanguageModel.rerank', () => {
  it('ranks by the objective: a different objective gives a different order', async () => {
    const rust = await model.rerank('asynchronous Rust runtime', docs);
    const ev = await model.rerank('How are electric vehicle batteries recycled?', docs);
    expect(order(rust.results)[0]).toBe('tokio');
    expect(order(ev.results)[0]).toBe('battery');
  });

  it('answers every document once, in the given order, with scores in [0, 1]', async () => {
    const { results } = await model.rerank('asynchronous Rust runtime', docs);
    expect(results.map((r) => r.id)).toEqual(docs.map((d) => d.id));
    for (const r of results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    // The best document covers every objective term: it scores 1.
    expect(results.find((r) => r.id === 'tokio')!.score).toBe(1);
  });

  it('marks a document sharing no objective term irrelevant, with score 0', async () => {
    const { results } = await model.rerank('asynchronous Rust runtime', docs);
    expect(results.find((r) => r.id === 'bread')).toEqual({ id: 'bread', score: 0, relevant: false });
    expect(results.find((r) => r.id === 'battery')!.relevant).toBe(false);
  });

  it('marks a document that shares only a passing term, far below the best, irrelevant', async () => {
    const { results } = await model.rerank('asynchronous Rust runtime', docs);
    const jvm = results.find((r) => r.id === 'jvm')!;
    expect(jvm.score).toBeGreaterThan(0); // it does mention "runtime"
    expect(jvm.relevant).toBe(false);
  });

  it('keeps a document that matches part of a long objective reasonably well', async () => {
    const { results } = await model.rerank(
      'Which companies recycle lithium batteries from electric cars in Europe?',
      docs,
    );
    expect(results.find((r) => r.id === 'battery')!.relevant).toBe(true);
    expect(results.filter((r) => r.relevant).map((r) => r.id)).toEqual(['battery']);
  });

  it('title words count more than body words', async () => {
    const a = { id: 'a', title: 'Kernel scheduling', text: 'Notes on various topics, one of which is memory.' };
    const b = { id: 'b', title: 'Various notes', text: 'Notes on kernel scheduling and one of which is memory.' };
    const { results } = await model.rerank('kernel scheduling', [a, b]);
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
  });

  it('is deterministic and independent of the input order', async () => {
    const first = await model.rerank('recycling batteries', docs);
    const again = await model.rerank('recycling batteries', docs);
    const reversed = await model.rerank('recycling batteries', [...docs].reverse());
    expect(again).toEqual(first);
    expect(Object.fromEntries(reversed.results.map((r) => [r.id, r.score]))).toEqual(
      Object.fromEntries(first.results.map((r) => [r.id, r.score])),
    );
  });

  it('keeps everything when the objective has no content words (cannot judge lexically)', async () => {
    const { results } = await model.rerank('what is it about?', docs);
    expect(results.every((r) => r.relevant && r.score === 0)).toBe(true);
  });

  it('reports zero usage and honours an aborted signal', async () => {
    expect((await model.rerank('rust', docs)).usage).toEqual({ input: 0, output: 0 });
    const controller = new AbortController();
    controller.abort();
    await expect(model.rerank('rust', docs, controller.signal)).rejects.toThrow(/abort/i);
  });
});

describe('ExtractiveLanguageModel.excerpts', () => {
  const text = [
    'Lithium-ion batteries power most electric vehicles sold today.',
    'Recycling them recovers lithium, nickel and cobalt, e.g. by shredding cells into black mass. Hydrometallurgy then leaches the metals.',
    '',
    'The company was founded in 2017 in Stockholm.',
    'Its recycling plant in Västerås processes 125,000 tonnes of batteries a year.',
    '- Board: five members',
    '- Employees: about 3,000',
  ].join('\n');

  it('returns whole sentences of the text, verbatim, best first, within maxChars', async () => {
    const { excerpts, usage } = await model.excerpts('battery recycling plant capacity', text, 200);
    const sentences = sentenceSpans(text).map((s) => s.text);
    expect(excerpts.length).toBeGreaterThan(0);
    for (const e of excerpts) {
      expect(text.includes(e)).toBe(true);
      expect(sentences).toContain(e);
    }
    expect(excerpts.join('').length).toBeLessThanOrEqual(200);
    expect(excerpts[0]).toBe('Its recycling plant in Västerås processes 125,000 tonnes of batteries a year.');
    expect(usage).toEqual({ input: 0, output: 0 });
  });

  it('picks different sentences for a different objective', async () => {
    const { excerpts } = await model.excerpts('when was the company founded', text, 100);
    expect(excerpts).toEqual(['The company was founded in 2017 in Stockholm.']);
  });

  it('skips a sentence that would overflow the budget but keeps smaller ones that fit', async () => {
    // Ranked: "Lithium-ion…" (62 chars), "Recycling them…" (92), "Its recycling plant…" (77).
    const all = (await model.excerpts('recycling lithium batteries', text, 10_000)).excerpts;
    expect(all.map((e) => e.slice(0, 12))).toEqual(['Lithium-ion ', 'Recycling th', 'Its recyclin']);
    const { excerpts } = await model.excerpts('recycling lithium batteries', text, 145);
    expect(excerpts).toEqual([all[0], all[2]]);
  });

  it('returns nothing when no sentence matches, and a word-bounded prefix when none fits', async () => {
    expect((await model.excerpts('quantum chromodynamics', text, 500)).excerpts).toEqual([]);
    const [only] = (await model.excerpts('Västerås plant', text, 30)).excerpts;
    expect(only).toBe('Its recycling plant in');
    expect(text.includes(only!)).toBe(true);
  });

  it('is deterministic', async () => {
    const a = await model.excerpts('recycling lithium batteries', text, 180);
    const b = await model.excerpts('recycling lithium batteries', text, 180);
    expect(a).toEqual(b);
  });
});

describe('lexical helpers', () => {
  it('stems inflections of a word to one form', () => {
    expect(new Set(['recycling', 'recycled', 'recycles', 'recycle'].map(stem)).size).toBe(1);
    expect(stem('batteries')).toBe(stem('battery'));
    expect(stem('running')).toBe('run');
    expect(stem('analysis')).toBe('analysis');
  });

  it('drops stopwords and objective phrasing words, lower-cases, keeps digits', () => {
    expect(tokenize('Find information about the 2024 Rust Runtimes')).toEqual(['2024', 'rust', 'runtim']);
  });

  it('splits sentences at terminal punctuation before a capital, blank lines and list items, not at "e.g."', () => {
    const spans = sentenceSpans('One, e.g. this. Two here!  "Three?" Four\n\nFive\n- six');
    expect(spans.map((s) => s.text)).toEqual(['One, e.g. this.', 'Two here!', '"Three?"', 'Four', 'Five', '- six']);
  });
});
