export { addCounts, bm25, BM25_CLASSIC, type Bm25Parameters, bm25Idf, bm25Weight, type Scored } from './bm25';
export { foldTerm, foldWord } from './fold';
export { sentenceRanges, sentences, sentenceSpans, type Span } from './sentences';
export { deepStem, singular, stem } from './stems';
export { INDEX_STOP_WORDS, OBJECTIVE_WORDS, QUERY_STOP_WORDS } from './stop-words';
export { tokenize, words } from './tokens';
