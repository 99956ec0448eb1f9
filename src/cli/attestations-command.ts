/**
 * `proofseal attestations [--json]`: the kept attestations and signed copies whose proof bundle lacks SPV data the
 * request's bundle now has (made before the jobs had every part: see docs/attestation.md, "Repairing kept
 * files"). `proofseal attestations repair`: makes them again and mails the attestation again.
 */
import {
  findKeptEvidenceGaps,
  repairKeptEvidence,
  type RepairDeps,
} from '../app/signature-requests/attestation/repair-kept-evidence.js';
import { parse, UsageError } from './args.js';

type Out = (line: string) => void;

export const ATTESTATIONS_USAGE = 'usage: proofseal attestations [--json] | proofseal attestations repair';

export async function attestationsCommand(deps: RepairDeps, args: string[], out: Out): Promise<void> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  const [sub, ...extra] = positionals;
  if (extra.length > 0 || (sub !== undefined && sub !== 'repair')) throw new UsageError(ATTESTATIONS_USAGE);
  const gaps = await findKeptEvidenceGaps(deps);
  if (values.json && sub === undefined) return out(JSON.stringify(gaps));
  if (gaps.length === 0) return out('every kept attestation and signed copy carries its whole proof bundle');
  for (const gap of gaps) {
    const what = `${gap.files.join(' and ')} without the SPV data of ${gap.missingSpv.join(', ')}`;
    if (sub !== 'repair') {
      out(`${gap.requestId}  ${what}`);
      continue;
    }
    await repairKeptEvidence(deps, gap);
    out(`${gap.requestId}  repaired: ${what} made again, the attestation mail queued again`);
  }
  if (sub !== 'repair') out(`${gaps.length} to repair: proofseal attestations repair`);
}
