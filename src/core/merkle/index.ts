export * from './tree.js';
export * from './proof.js';
export * from './serialize.js';
export * from './blinding.js';
export * from './batch-tree.js';
