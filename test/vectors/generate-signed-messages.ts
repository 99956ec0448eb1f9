/**
 * Generates signed-messages.json ONCE; the JSON is committed and read by test/core/bitcoin.test.ts so
 * that a regression in our own signer or verifier is caught against frozen bytes.
 * Signatures come from bitcoinjs-message v2 `sign(message, privateKey, compressed, {segwitType})`,
 * addresses from @scure/btc-signer (p2pkh / p2sh(p2wpkh) / p2wpkh) — neither is our code.
 * Private keys are SHA-256("proofseal vector <i>"), so the file can be regenerated identically:
 *   node --import tsx test/vectors/generate-signed-messages.ts > test/vectors/signed-messages.json
 */
import { createHash } from 'node:crypto';
import { NETWORK, p2pkh, p2sh, p2wpkh, TEST_NETWORK } from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import bitcoinMessage from 'bitcoinjs-message';

const REGTEST = { ...TEST_NETWORK, bech32: 'bcrt' };
const NETS = { mainnet: NETWORK, testnet: TEST_NETWORK, regtest: REGTEST } as const;
type Kind = 'p2pkh-uncompressed' | 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh';

const cases: { kind: Kind; net: keyof typeof NETS; message: string }[] = [
  { kind: 'p2pkh', net: 'mainnet', message: 'b8f0ccf1484379c957bb1a2d1806998e2662ebde731266dbd9b953d59fd81a5b' },
  {
    kind: 'p2pkh-uncompressed',
    net: 'mainnet',
    message: 'fd071b9817c9efccac5a144d69893a4a5323cbde4a74d5691c3cf3ab979d4160',
  },
  { kind: 'p2sh-p2wpkh', net: 'mainnet', message: 'hello' },
  { kind: 'p2wpkh', net: 'mainnet', message: '' },
  { kind: 'p2pkh', net: 'testnet', message: 'Grüße, 世界 😀' },
  { kind: 'p2sh-p2wpkh', net: 'testnet', message: 'x'.repeat(300) },
  { kind: 'p2wpkh', net: 'testnet', message: 'CN=Jane Doe,EMAILADDRESS=jane@acme.com' },
  { kind: 'p2pkh', net: 'regtest', message: 'a'.repeat(64) },
  { kind: 'p2wpkh', net: 'regtest', message: 'line1\nline2' },
  { kind: 'p2pkh-uncompressed', net: 'testnet', message: 'y'.repeat(70000) },
];

function address(kind: Kind, pub33: Uint8Array, pub65: Uint8Array, net: keyof typeof NETS): string {
  const network = NETS[net];
  if (kind === 'p2pkh-uncompressed') return p2pkh(pub65, network).address as string;
  if (kind === 'p2pkh') return p2pkh(pub33, network).address as string;
  if (kind === 'p2wpkh') return p2wpkh(pub33, network).address as string;
  return p2sh(p2wpkh(pub33, network), network).address as string;
}

const vectors = cases.map((c, i) => {
  const key = createHash('sha256').update(`proofseal vector ${i}`).digest();
  const pub33 = secp256k1.getPublicKey(key, true);
  const pub65 = secp256k1.getPublicKey(key, false);
  const segwitType = c.kind === 'p2wpkh' ? 'p2wpkh' : c.kind === 'p2sh-p2wpkh' ? 'p2sh(p2wpkh)' : undefined;
  const signature = bitcoinMessage.sign(
    c.message,
    key,
    c.kind !== 'p2pkh-uncompressed',
    segwitType ? { segwitType } : {},
  );
  return {
    kind: c.kind,
    network: c.net,
    privateKey: key.toString('hex'),
    publicKey: Buffer.from(c.kind === 'p2pkh-uncompressed' ? pub65 : pub33).toString('hex'),
    address: address(c.kind, pub33, pub65, c.net),
    message: c.message,
    signature: signature.toString('base64'),
  };
});

process.stdout.write(
  `${JSON.stringify({ generatedBy: 'test/vectors/generate-signed-messages.ts (bitcoinjs-message 2.2.0, @scure/btc-signer)', vectors }, null, 2)}\n`,
);
