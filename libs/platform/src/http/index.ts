export * from './errors';
export * from './model';
export { expectedRepr, pyRepr } from './coercions';
export * from './parsers';
export * from './fields';
export * from './python-json';
export * from './fastify';
export * from './validation.pipe';
export * from './exception.filter';
