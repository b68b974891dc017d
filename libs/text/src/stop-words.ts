/**
 * Stop words. Three lists on purpose, each tuned for what it is dropped from; merging them would
 * change what matches (and so how pages rank):
 *
 * - `QUERY_STOP_WORDS`: the language engines (rerank, schema filling, research models). Function
 *   words, plus the words people phrase an objective with ("find information about"), which
 *   would otherwise match every page that says "find" or "information".
 * - `INDEX_STOP_WORDS`: the local search index. Only words too common to tell pages apart:
 *   dropping them keeps postings short and BM25 focused, and a page saying "find" or "show" can
 *   still be found by those words.
 * - `OBJECTIVE_WORDS`: added by page excerpts (`@app/extraction`) to the detected language's own
 *   list: the question words and fillers objectives are phrased with.
 */

export const QUERY_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into ' +
    'is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those through to too under until up very ' +
    'was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    'find finding information info looking look want need please tell show give know learn something anything whether etc via per'
  ).split(' '),
);

export const INDEX_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about after again all also am an and any are as at be because been before being between both but by can could did do does doing ' +
    'down during each few for from further had has have having he her here hers him his how i if in into is it its itself just ' +
    'me more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the ' +
    'their theirs them then there these they this those through to too under until up very was we were what when where which while ' +
    'who whom why will with would you your yours'
  ).split(' '),
);

export const OBJECTIVE_WORDS: readonly string[] =
  'a i me my do does did what which who whom whose where why how find tell show give list about any some please get information info page'.split(
    ' ',
  );
