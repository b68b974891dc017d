export * from './lexical';
