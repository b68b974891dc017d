/** The candidates of "when" and "what year": dates, years (early ones where their words say so), centuries and decades. */
import { datesIn, periodsIn, yearsIn } from './dates';

describe('years', () => {
  it('reads 1500-2099 as years wherever they stand', () => {
    expect(yearsIn('The mill opened 1897 and closed in 2011.')).toEqual(['1897', '2011']);
  });

  it('reads an earlier year where a preposition or an era says so, and the end of its range', () => {
    expect(yearsIn('Tarn was besieged in 1342, when its walls fell.')).toEqual(['1342']);
    expect(yearsIn('In 1209 the envoy returned to Varden.')).toEqual(['1209']);
    expect(yearsIn('From 1311 to 1314 the troops held Orvik.')).toEqual(['1311', '1314']);
    expect(yearsIn('It was built c. 874 and rebuilt in AD 64 (or 64 AD).')).toEqual(['874', '64', '64']);
    expect(yearsIn('The wall dates from 300 BC.')).toEqual(['300 BC']);
    expect(yearsIn('The tower was raised c. 300 BC.')).toEqual(['300 BC']);
  });

  it('leaves a count alone: "1200 men", "in 500 cities", "in 3 ways", a decimal', () => {
    expect(yearsIn('He led 1200 men in 500 cities in 3 ways, in 250.5 days.')).toEqual([]);
  });
});

describe('dates and periods', () => {
  it('reads centuries, a pair of centuries and decades as written', () => {
    expect(periodsIn('It emerged in the first half of the 10th century.')).toEqual(['10th century']);
    expect(periodsIn('They ruled in the 10th and 11th centuries.')).toEqual(['10th and 11th centuries']);
    expect(periodsIn('Reform began in the early 11th century and the sixteenth century.')).toEqual([
      'early 11th century',
      'sixteenth century',
    ]);
    expect(periodsIn('Raids grew in the 1340s.')).toEqual(['1340s']);
  });

  it('gives a date without the preposition chrono-node reads with it, and a period beside it', () => {
    expect(datesIn('On 1 May 1457 the fleet reached Orvik, as in the 13th century.')).toEqual([
      '1 May 1457',
      '13th century',
    ]);
  });

  it('gives years where no date is written', () => {
    expect(datesIn('A third attack came in 1342.')).toEqual(['1342']);
  });
});
