"""Precision and recall of the secret guard on the two corpora in tests/data/secrets/.

benign.jsonl holds memory-file snippets full of public identifiers (video and channel ids,
share links, pod names, integrity hashes, digests, SHAs, ...) that must not be flagged;
secrets.jsonl holds fake but well-formed credentials of many shapes that must be. Each
text is scanned as one memory body with `scan_for_secrets({"body": text})`, the call every
version of the guard has. A text counts as flagged when there is at least one finding.

  precision = flagged secrets / (flagged secrets + flagged benign texts)
  recall    = flagged secrets / secrets

Usage:
  python benchmarks/secret_precision.py                 # this checkout
  python benchmarks/secret_precision.py --code DIR      # another checkout (e.g. main, for "before")
  python benchmarks/secret_precision.py --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "secrets"
# The corpus stores each fake credential with this mark inside it, so that no complete
# token sits in the repository for a scanner to report; the loader takes it out.
SPLIT_MARK = "\u205e"


def load_corpus(name: str, data_dir: Path = DATA) -> list[dict[str, str]]:
    """The rows of one corpus file (id, text), with the split marks removed from the text."""
    rows = []
    with open(data_dir / name, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                rows.append({"id": row["id"], "text": row["text"].replace(SPLIT_MARK, "")})
    return rows


def measure(scan, benign: list[dict[str, str]], secrets: list[dict[str, str]]) -> dict[str, Any]:
    """Which texts the scan flags, and the precision and recall that follow."""
    false_pos = [r["id"] for r in benign if scan({"body": r["text"]})]
    missed = [r["id"] for r in secrets if not scan({"body": r["text"]})]
    caught = len(secrets) - len(missed)
    flagged = caught + len(false_pos)
    return {
        "benign_texts": len(benign),
        "secret_texts": len(secrets),
        "benign_flagged": len(false_pos),
        "secrets_caught": caught,
        "precision": round(caught / flagged, 3) if flagged else None,
        "recall": round(caught / len(secrets), 3) if secrets else None,
        "false_positives": false_pos,
        "missed": missed,
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, scan both corpora and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", type=Path, default=None, help="import memdir_nb from this folder")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.code is not None:
        if not (args.code / "memdir_nb" / "__init__.py").is_file():
            parser.error(f"--code {args.code} holds no memdir_nb package; pass a checkout's root")
        sys.path.insert(0, str(args.code.resolve()))
    else:
        sys.path.insert(0, str(HERE.parent))
    from memdir_nb.security.secret_scan import scan_for_secrets

    result = measure(scan_for_secrets, load_corpus("benign.jsonl"), load_corpus("secrets.jsonl"))
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(
        f"benign texts flagged: {result['benign_flagged']} of {result['benign_texts']}\n"
        f"secrets caught:       {result['secrets_caught']} of {result['secret_texts']}\n"
        f"precision {result['precision']}, recall {result['recall']}"
    )
    if result["false_positives"]:
        print("false positives: " + ", ".join(result["false_positives"]))
    if result["missed"]:
        print("missed: " + ", ".join(result["missed"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
