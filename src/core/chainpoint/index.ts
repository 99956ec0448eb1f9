export * from './receipt.js';
export * from './validate.js';
export * from './ots.js';
