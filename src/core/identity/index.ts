export * from './x500-name.js';
export * from './issuer-domain.js';
export * from './identity-message.js';
export * from './key-status.js';
