export * from './hex.js';
export * from './sha256.js';
export * from './hash-check.js';
