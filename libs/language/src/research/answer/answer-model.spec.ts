import committed from './reader-weights.json';
import { judge, loadWeights, missingAnswer, probabilityOf, type ReaderWeights } from './answer-model';
import { answerFeatures, FEATURE_NAMES, wrongKind } from './features';
import { analyse } from '../question/analysis';
import { gradeExtractive, gradeRules } from '../grade';

const page = (source: number, title: string, text: string) => ({
  source,
  url: `https://example.test/${source}`,
  title,
  text,
});

describe('the committed reader weights', () => {
  it('load, and name exactly the features the engine computes, in its order', () => {
    const w = loadWeights();
    expect(w.features).toEqual(FEATURE_NAMES);
    expect(w.weights).toHaveLength(FEATURE_NAMES.length);
    expect(w.thresholds.answer).toBeLessThanOrEqual(w.thresholds.high);
    expect(w.learner).toMatch(/logistic regression/);
    expect((w.trained as { split: string }).split).toMatch(/tune/);
  });

  it('are refused when they name other features, or miss numbers', () => {
    const base = committed as unknown as ReaderWeights;
    expect(() => loadWeights({ ...base, features: [...base.features.slice(1), 'made_up'] })).toThrow(
      /run npm run train:reader/,
    );
    expect(() => loadWeights({ ...base, weights: base.weights.slice(1) })).toThrow(/weights must hold/);
    expect(() => loadWeights({ ...base, thresholds: { answer: 0.9, high: 0.2 } })).toThrow(/thresholds/);
  });
});

describe('a value of another kind than asked is never the answer', () => {
  it.each([
    ['person', 'Denver', /a place, not a person/],
    ['person', '2009', /a date or number/],
    ['number', 'several engineers', /no number/],
    ['year', 'the spring', /no year/],
    ['year', 'The ferry left Tarn in a gale. On 2 May 1874 it reached Orvik with its cargo.', /no year/],
    ['number', 'The survey counted 40 boats in the harbour and more beyond the point that morning.', /no number/],
    ['place', 'Mara Ellison Voss', /a person, not a place/],
    ['organisation', 'Mara Ellison', /a person, not an organisation/],
  ] as const)('%s asked, "%s" refused', (kind, value, why) => {
    expect(wrongKind(kind, value)).toMatch(why);
  });

  it.each([
    ['person', 'Mara Ellison'],
    ['person', 'Tidewater Capital'],
    ['organisation', 'Tidewater Capital'],
    ['organisation', 'Ellison & Voss'],
    ['place', 'Adelaide'],
    ['number', 'twelve'],
    ['year', '1997'],
    ['year', 'in 874'],
    ['date', 'the 10th and 11th centuries'],
    ['date', 'the 1060s'],
  ] as const)('%s asked, "%s" kept', (kind, value) => {
    expect(wrongKind(kind, value)).toBeNull();
  });

  it('a who-question the pages answer only with a place is answered null, low, with the reason in words', () => {
    const question = 'Who founded Corvane Biolabs?';
    const passages = [
      page(
        1,
        'About Corvane Biolabs',
        'Corvane Biolabs is a contract research company. Founded in Tallinn in 2011, it runs two laboratories.',
      ),
    ];
    const finding = gradeExtractive(question, passages);
    expect(finding!.verdict!.answered).toBe(false);
    expect(finding!.verdict!.value).toBe('Tallinn');
    expect(finding!.confidence).toBe('low');
    expect(finding!.verdict!.reason).toBe(
      'The pages read name no person who founded Corvane Biolabs: the closest candidate, "Tallinn", is a place, not a person.',
    );
    // No value: the finding holds the sentence, which promptAnswer does not take for one.
    expect(finding!.answer).toBe(finding!.evidence[0]!.quote);
  });
});

describe('judging an answer', () => {
  const question = 'Who founded Corvane Biolabs?';
  const passages = [
    page(
      1,
      'About Corvane Biolabs',
      'Corvane Biolabs was founded by Mara Ellison in 2011. The company runs two laboratories in Tallinn.',
    ),
    page(2, 'Mara Ellison', 'Mara Ellison is a biochemist who founded Corvane Biolabs after a decade at a university.'),
  ];

  it('keeps the value the rules read, with the model probability as its confidence and the features that decided', () => {
    const rules = gradeRules(question, passages)!;
    const finding = gradeExtractive(question, passages)!;
    expect(rules.answer).toBe('Mara Ellison');
    expect(finding.verdict!.value).toBe('Mara Ellison');
    expect(finding.verdict!.answered).toBe(true);
    expect(finding.answer).toBe('Mara Ellison');
    const w = loadWeights();
    const p = finding.verdict!.probability;
    expect(finding.confidence).toBe(p >= w.thresholds.high ? 'high' : 'medium');
    expect(finding.verdict!.reason).toMatch(
      /^Judged [01]\.\d\d likely right \((high|medium)\): .+ \((rule_high|proximity|sentence_cover|[a-z_]+) \d\.\d\d, (for|against) \d+\.\d\d\)/,
    );
    expect(Object.keys(finding.verdict!.features)).toEqual(FEATURE_NAMES);
  });

  it('its probability is the logistic of the weighted, standardised features', () => {
    const analysis = analyse(question);
    const input = {
      question: analysis,
      value: 'Mara Ellison',
      rule: 'medium' as const,
      evidence: [{ source: 1, quote: passages[0]!.text.split('. ')[0]! }],
      passages,
    };
    const features = answerFeatures(input);
    const w = loadWeights();
    const z =
      w.bias + FEATURE_NAMES.reduce((a, f, i) => a + (w.weights[i]! * (features[f] - w.mean[i]!)) / w.scale[i]!, 0);
    expect(probabilityOf(features)).toBeCloseTo(1 / (1 + Math.exp(-z)), 10);
    expect(judge(input).probability).toBeCloseTo(probabilityOf(features), 10);
  });

  it('a sentence that lacks the question names weighs against the value', () => {
    const analysis = analyse('Who founded Corvane Biolabs in Riga?');
    const base = { question: analysis, value: 'Mara Ellison', rule: 'medium' as const, passages };
    const stated = answerFeatures({
      ...base,
      evidence: [{ source: 1, quote: 'Corvane Biolabs was founded by Mara Ellison in Riga in 2011.' }],
    });
    const lacking = answerFeatures({
      ...base,
      evidence: [{ source: 1, quote: 'Mara Ellison was founded by Mara Ellison in 2011.' }],
    });
    expect(stated.names_missing).toBeLessThan(lacking.names_missing);
    expect(stated.sentence_cover).toBeGreaterThan(lacking.sentence_cover);
  });

  it('a sentence stating the opposite of a word of the question weighs as such (antonym_clash)', () => {
    const analysis = analyse('In what year did Corvane Biolabs increase its staff?');
    const base = { question: analysis, value: '2014', rule: 'medium' as const, passages };
    const opposite = answerFeatures({
      ...base,
      evidence: [{ source: 1, quote: 'Corvane Biolabs decreased its staff in 2014.' }],
    });
    const same = answerFeatures({
      ...base,
      evidence: [{ source: 1, quote: 'Corvane Biolabs increased its staff in 2014.' }],
    });
    expect(opposite.antonym_clash).toBe(1);
    expect(same.antonym_clash).toBe(0);
    // Read from the question once, with its analysis: "lose" and its opposites (keep, win).
    const lose = analyse('When did Corvane Biolabs lose its licence?').opposed.find((o) => o.stem === 'lose');
    expect(lose?.opposites).toEqual(expect.arrayContaining(['keep', 'win']));
  });

  it("weighs the value's share of the candidate model among the question's candidates (candidate_share)", () => {
    const analysis = analyse(question);
    const base = { question: analysis, rule: 'medium' as const, passages };
    const evidence = [{ source: 1, quote: passages[0]!.text.split('. ')[0]! }];
    const top = answerFeatures({ ...base, value: 'Mara Ellison', evidence }).candidate_share;
    expect(top).toBeGreaterThan(0.5);
    expect(top).toBeLessThanOrEqual(1);
    expect(answerFeatures({ ...base, value: 'Tallinn', evidence }).candidate_share).toBeLessThan(top);
    expect(answerFeatures({ ...base, value: 'nobody named here', evidence }).candidate_share).toBe(0);
  });

  it('says what is missing in words', () => {
    expect(missingAnswer('person', 'Who founded Corvane Biolabs?')).toBe(
      'the pages read name no person who founded Corvane Biolabs',
    );
    expect(missingAnswer('place', 'Where was Mara Ellison born?')).toBe(
      'the pages read name no place where was Mara Ellison born',
    );
    expect(missingAnswer('number', 'How many labs does it run?')).toBe(
      'the pages read state no number that answers "How many labs does it run"',
    );
  });
});
