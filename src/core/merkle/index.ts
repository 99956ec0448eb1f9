export * from './tree.js';
export * from './proof.js';
export * from './serialize.js';
