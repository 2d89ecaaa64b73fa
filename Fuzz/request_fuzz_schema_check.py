#!/usr/bin/env python3
"""Checks the request fuzzer's decoder answers against the contract's JSON Schema.

    request_fuzz_schema_check.py SAMPLE.jsonl [--jobs N]

SAMPLE.jsonl comes from `RequestFuzz decode --schema-sample`: one line per message, {"i", "answer", "value",
"key"} with the value in base64 and `answer` the decoder's (`query`, `cancel` or a rejection code). A message
is checked against the request schema, or the cancel schema when it has a `cancel` member (as the decoder
decides). Two rules, the same as ContractFuzzTests' schema test:

- the decoder accepted it (query, cancel): the schema must accept it too;
- the schema accepts it but the decoder rejected it: the code must be one of the checks the schema cannot
  make (RequestFuzzOracle.workerOnlyCodes).

Values Python's json module cannot read (not UTF-8, not JSON, NaN, ...) or reads into text that is not
Unicode (an escaped lone surrogate, which the decoder refuses as invalid_json) are skipped when the decoder rejected
them and counted as a violation when it accepted them. Prints the counts and the first violations; exits 1
when there is any.
"""

import base64
import json
import multiprocessing
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "docs" / "contract" / "tools"))
import validate  # noqa: E402  (the contract's own validator: schemas, registry, format checker)

WORKER_ONLY = {
    "invalid_where", "unknown_named_query", "free_clauses_disabled", "unknown_credential", "credential_scope_mismatch",
    "invalid_geometry", "key_mismatch", "too_large", "invalid_value", "unsupported_spatial_reference", "too_many_layers",
}
VALIDATORS = {}


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def verdict(line):
    record = json.loads(line)
    accepted = record["answer"] in ("query", "cancel")
    value = base64.b64decode(record["value"])
    try:
        document = json.loads(value.decode("utf-8"), parse_constant=reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        return record["i"], record["answer"], "unreadable", f"Python cannot read it: {error}"[:300] if accepted else None
    try:
        json.dumps(document, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        # A \u escape of a lone surrogate: Python keeps it, RFC 8259 leaves it undefined, the decoder refuses it.
        return record["i"], record["answer"], "unreadable", \
            "accepted a lone surrogate escape" if accepted else None
    schema = "cancel" if isinstance(document, dict) and "cancel" in document else "request"
    validator = VALIDATORS.get(schema) or VALIDATORS.setdefault(schema, validate.validator(schema))
    try:
        errors = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}" for e in validator.iter_errors(document)]
    except RecursionError:
        errors = ["(too deep for the Python validator)"]
    if accepted and errors:
        return record["i"], record["answer"], "invalid", f"accepted but schema-invalid: {errors[:3]}"
    if not accepted and not errors and record["answer"] not in WORKER_ONLY:
        return record["i"], record["answer"], "valid", f"schema-valid but rejected {record['answer']}"
    return record["i"], record["answer"], "valid" if not errors else "invalid", None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else multiprocessing.cpu_count()
    with open(sys.argv[1], encoding="utf-8") as handle:
        lines = handle.readlines()
    counts, violations = {}, []
    with multiprocessing.Pool(jobs) as pool:
        for index, answer, schema_verdict, violation in pool.imap_unordered(verdict, lines, chunksize=256):
            side = "accepted" if answer in ("query", "cancel") else "rejected"
            counts[(side, schema_verdict)] = counts.get((side, schema_verdict), 0) + 1
            if violation:
                violations.append((index, violation))
    print(f"schema check: {len(lines)} messages")
    for (side, schema_verdict), number in sorted(counts.items()):
        print(f"  decoder {side}, schema {schema_verdict}: {number}")
    print(f"violations: {len(violations)}")
    for index, violation in sorted(violations)[:20]:
        print(f"  message {index}: {violation}  (RequestFuzz show --index {index})")
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
