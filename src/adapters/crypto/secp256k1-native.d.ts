/** Types of the part of `secp256k1` v5 (libsecp256k1 N-API bindings, CommonJS) that the core uses. */
declare module 'secp256k1/bindings.js' {
  interface Secp256k1Native {
    ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed?: boolean): Uint8Array;
    ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
    publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array;
    publicKeyConvert(publicKey: Uint8Array, compressed?: boolean): Uint8Array;
  }
  const lib: Secp256k1Native;
  export default lib;
}
