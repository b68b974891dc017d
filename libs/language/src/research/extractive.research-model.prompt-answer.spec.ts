/** promptAnswer: the value that answers a prompt, as the report leads with it. */
import type { Finding } from '@app/domain/search-run/search-run.events';
import { promptAnswer } from './extractive.research-model';

describe('promptAnswer: the value that answers a prompt, as the report leads with it', () => {
  const finding = (
    subquery: string,
    answer: string,
    quote: string,
    confidence: Finding['confidence'] = 'medium',
  ): Finding => ({ subquery, answer, citations: [1], confidence, evidence: [{ source: 1, quote }] });

  it('is the value a typed finding of the prompt found, with its confidence, citations and sentence', () => {
    const found = promptAnswer('When was Acme Robotics founded?', [
      finding('When was Acme Robotics founded?', '2014', 'Acme Robotics was founded in 2014 in Leeds.', 'high'),
    ]);
    expect(found).toEqual({
      value: '2014',
      confidence: 'high',
      citations: [1],
      quote: 'Acme Robotics was founded in 2014 in Leeds.',
      source: 1,
    });
  });

  it('takes a follow-up that restates the prompt first (its finding answers it)', () => {
    const findings = [
      finding('Where did the chief executive of Acme study?', 'Leeds', 'Acme is based in Leeds.'),
      finding('Where did Dana Whitcombe study?', 'Uppsala University', 'Dana Whitcombe studied at Uppsala University.'),
    ];
    expect(
      promptAnswer('Where did the chief executive of Acme study?', findings, ['Where did Dana Whitcombe study?'])
        ?.value,
    ).toBe('Uppsala University');
  });

  it('is null for an open question (a sentence is not a value) and when no finding answers the prompt', () => {
    expect(
      promptAnswer('How are EV batteries recycled?', [
        finding(
          'How are EV batteries recycled?',
          'Electric vehicle batteries are shredded.',
          'Electric vehicle batteries are shredded.',
        ),
      ]),
    ).toBeNull();
    expect(
      promptAnswer('When was Acme founded?', [
        finding('Who leads Acme?', 'Dana Whitcombe', 'Dana Whitcombe leads Acme.'),
      ]),
    ).toBeNull();
  });

  it('is the option that answers which of two, though the sentence settling it does not repeat its name', () => {
    const q = 'Which park is larger, Harrow Fen National Park or Kestle Moor National Park?';
    expect(
      promptAnswer(q, [finding(q, 'Harrow Fen National Park', 'It covers 412 km² of marshes and dunes.')])?.value,
    ).toBe('Harrow Fen National Park');
    // Anything else is no option.
    expect(promptAnswer(q, [finding(q, 'Kestle Moor', 'It covers 412 km² of marshes and dunes.')])).toBeNull();
  });
});
