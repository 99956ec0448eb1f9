/**
 * Stands in for `secp256k1/bindings.js` (a native N-API module) in the browser bundle: importing it fails,
 * as it does on a machine without the prebuilt binary, so `secp-backend.ts` picks its @noble/curves backend.
 */
throw new Error('libsecp256k1 (native) is not available in a browser');
