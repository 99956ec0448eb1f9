#!/usr/bin/python3
"""Independent check of a proofseal .ots file with Debian's python3-opentimestamps.

Usage: /usr/bin/python3 ots-check.py <ots file> <80-byte block header, hex>
Prints one JSON object: {"ok": bool, "digest": hex, "height": n|null, "commitment": hex|null, "error": str|null}.
ok is true when the file deserializes, carries exactly one BitcoinBlockHeaderAttestation, and
verify_against_blockheader(commitment, header) accepts the header. Exit status 0 either way;
2 when the libraries are missing.
"""
import json
import sys

try:
    from bitcoin.core import CBlockHeader
    from opentimestamps.core.notary import BitcoinBlockHeaderAttestation
    from opentimestamps.core.serialize import BytesDeserializationContext
    from opentimestamps.core.timestamp import DetachedTimestampFile
except ImportError as e:  # pragma: no cover
    print(json.dumps({"ok": False, "error": "missing library: %s" % e}))
    sys.exit(2)


def check(ots_bytes, header_bytes):
    result = {"ok": False, "digest": None, "height": None, "commitment": None, "error": None}
    try:
        detached = DetachedTimestampFile.deserialize(BytesDeserializationContext(ots_bytes))
        result["digest"] = detached.file_digest.hex()
        found = [(msg, att) for msg, att in detached.timestamp.all_attestations()
                 if isinstance(att, BitcoinBlockHeaderAttestation)]
        if len(found) != 1:
            raise ValueError("expected one Bitcoin attestation, found %d" % len(found))
        msg, att = found[0]
        result["height"] = att.height
        result["commitment"] = msg.hex()
        att.verify_against_blockheader(msg, CBlockHeader.deserialize(header_bytes))
        result["ok"] = True
    except Exception as e:  # report any failure as data, the caller asserts on it
        result["error"] = "%s: %s" % (type(e).__name__, e)
    return result


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    print(json.dumps(check(data, bytes.fromhex(sys.argv[2]))))
