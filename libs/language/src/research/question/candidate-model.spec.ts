import committed from './candidate-weights.json';
import lexicon from '../../lexicon/answer-words.json';
import { analyse } from './analysis';
import {
  ALL_CANDIDATE_FEATURES,
  candidateWeights,
  HAND_SET,
  LEARNED_ONLY,
  loadCandidateWeights,
  weighed,
} from './candidate-model';
import { rankedCandidates } from './ranked';
import { shortAnswer } from './best-answer';
import { scoredCandidates } from './scoring';

const page = (source: number, title: string, text: string) => ({
  source,
  url: `https://example.test/${source}`,
  title,
  text,
});
const passages = [
  page(
    1,
    'Corvane Biolabs',
    'Corvane Biolabs was founded by Mara Ellison in 2011. The chief executive of Corvane Biolabs is Tobin Reyes.',
  ),
  page(
    2,
    'Mara Ellison',
    'Mara Ellison is a biochemist who founded Corvane Biolabs after a decade at Varden University.',
  ),
];

describe('the candidate model', () => {
  it('loads the committed weights, which name the features the scorer computes', () => {
    const w = loadCandidateWeights();
    expect(Object.keys(w)).toEqual([...ALL_CANDIDATE_FEATURES]);
    expect((committed as { source: string }).source).toMatch(/hand-set|fitted by train:reader/);
    expect(() => loadCandidateWeights({ ...committed, features: ['overlap'] })).toThrow(/the scorer computes/);
  });

  it('gives every candidate its named features, and scores it exp(w · x)', () => {
    const ranked = scoredCandidates(analyse('Who founded Corvane Biolabs?'), passages);
    expect(ranked.length).toBeGreaterThan(0);
    const w = candidateWeights();
    for (const entry of ranked) {
      expect(Object.keys(entry.x)).toEqual(
        expect.arrayContaining(['overlap', 'rank', 'proximity', 'kind_fit', 'agreement', 'own_page']),
      );
      const z = Object.entries(entry.x).reduce((a, [f, v]) => a + w[f as keyof typeof w] * v, 0);
      expect(entry.score).toBeCloseTo(Math.exp(z), 10);
    }
    expect(ranked[0]!.value).toBe('Mara Ellison');
    expect(shortAnswer('Who founded Corvane Biolabs?', passages)?.value).toBe('Mara Ellison');
  });

  it("learns only the features the rules never weighed: the rules' factors keep their hand-set weight", () => {
    const w = loadCandidateWeights();
    for (const f of ALL_CANDIDATE_FEATURES) {
      expect(HAND_SET[f]).toBe(LEARNED_ONLY.has(f) ? 0 : 1);
      if (!LEARNED_ONLY.has(f)) expect(w[f]).toBe(1);
    }
    expect(LEARNED_ONLY.size).toBeGreaterThan(0);
  });

  it('scores the candidates of one question over the same pages once', () => {
    const analysis = analyse('Who founded Corvane Biolabs?');
    const first = rankedCandidates(analysis, passages);
    expect(rankedCandidates(analysis, [...passages])).toBe(first);
    expect(rankedCandidates(analysis, passages.slice(0, 1))).not.toBe(first);
    expect(rankedCandidates(analyse('Who founded Corvane Biolabs?'), passages)).not.toBe(first);
  });

  it('with every weight 1, a score is the product of its factors', () => {
    const ones = Object.fromEntries(ALL_CANDIDATE_FEATURES.map((f) => [f, 1])) as ReturnType<typeof candidateWeights>;
    expect(weighed({ overlap: Math.log(0.5), proximity: Math.log(1.2), kind_fit: Math.log(1.25) }, ones)).toBeCloseTo(
      0.5 * 1.2 * 1.25,
      12,
    );
  });
});

describe('the word lists are data with their source', () => {
  it('every list says where its words come from and holds words', () => {
    for (const [name, list] of Object.entries(lexicon as Record<string, unknown>)) {
      if (name === 'about') continue;
      const l = list as { source: string; words: string[] };
      expect(l.source.length).toBeGreaterThan(10);
      expect(l.words.length).toBeGreaterThan(0);
    }
  });
});
