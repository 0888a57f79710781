/**
 * The request schemas of the admin API, one module per resource, and the
 * helper that turns their issues into a `ValidationError` body.
 */
export * from './access.schema.js';
export * from './common.schema.js';
export * from './constraint.schema.js';
export * from './feature.schema.js';
export * from './formats.js';
export * from './issues.js';
export * from './params.schema.js';
export * from './patch.schema.js';
export * from './payload.schema.js';
export * from './project.schema.js';
export * from './segment.schema.js';
export * from './strategy.schema.js';
export * from './variant.schema.js';
export * from './dependency.schema.js';
export * from './tag.schema.js';
export * from './strategy-order.schema.js';
export * from './definition.schema.js';
