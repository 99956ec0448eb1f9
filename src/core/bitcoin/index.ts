export * from './addresses.js';
export * from './block-merkle.js';
export * from './compact-size.js';
export * from './hash160.js';
export * from './op-return.js';
export * from './raw-tx.js';
export * from './secp-backend.js';
export * from './signed-message.js';
