/** Public surface of the feature-flags plugin: the token of its store. */
export const FEATURE_FLAGS = Symbol.for('workbench.feature-flags');
