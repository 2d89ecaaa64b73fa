#!/usr/bin/env python3
"""Validates feature-query messages against the contract's JSON Schemas (draft 2020-12).

Needs the PyPI packages jsonschema and rfc3339-validator (scripts/requirements-test.txt; without the
latter, jsonschema silently skips the date-time format check, so this script refuses to run).

    validate.py SCHEMA FILE...      validate files against one schema (request, cancel, result, error, progress)
    validate.py --examples          validate docs/contract/examples/*.json (the schema is the name's prefix),
                                    the schemas against the draft 2020-12 meta-schema, and asyncapi.yaml
    validate.py --manifest FILE     for the tests: FILE has lines "SCHEMA<TAB>PATH"; prints one JSON
                                    object per line: {"path": ..., "schema": ..., "valid": bool, "errors": [...]}

Exit status: 0 when everything validated (always 0 with --manifest, whose output says), 1 otherwise.
"""

import json
import pathlib
import sys

CONTRACT = pathlib.Path(__file__).resolve().parent.parent
SCHEMAS = CONTRACT / "schemas"
EXAMPLES = CONTRACT / "examples"
MESSAGE_SCHEMAS = ("request", "cancel", "result", "error", "progress")

try:
    import jsonschema
    import referencing
    import rfc3339_validator  # noqa: F401  (enables the date-time format check)
except ImportError as error:  # pragma: no cover
    sys.exit(f"validate.py: {error}; install scripts/requirements-test.txt (jsonschema, rfc3339-validator)")


def load_registry():
    resources = []
    schemas = {}
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        resource = referencing.Resource.from_contents(document)
        resources.append((document["$id"], resource))
        schemas[path.name.removesuffix(".schema.json")] = document
    return referencing.Registry().with_resources(resources), schemas


REGISTRY, SCHEMA_DOCUMENTS = load_registry()
FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER


def validator(schema_name):
    if schema_name not in SCHEMA_DOCUMENTS:
        raise SystemExit(f"validate.py: no schema named {schema_name!r}; expected one of {', '.join(MESSAGE_SCHEMAS)}")
    return jsonschema.Draft202012Validator(
        SCHEMA_DOCUMENTS[schema_name], registry=REGISTRY, format_checker=FORMAT_CHECKER)


def errors_of(schema_name, instance):
    found = []
    for error in validator(schema_name).iter_errors(instance):
        where = "/".join(str(part) for part in error.absolute_path) or "(root)"
        found.append(f"{where}: {error.message[:300]}")
    return found


def validate_file(schema_name, path):
    try:
        with open(path, encoding="utf-8") as handle:
            instance = json.load(handle)
    except (OSError, ValueError) as error:
        return [f"cannot read JSON: {error}"]
    return errors_of(schema_name, instance)


def schema_for_example(path):
    prefix = path.name.split("-", 1)[0]
    return prefix if prefix in MESSAGE_SCHEMAS else None


def check_schemas():
    problems = []
    for name, document in SCHEMA_DOCUMENTS.items():
        try:
            jsonschema.Draft202012Validator.check_schema(document)
        except jsonschema.SchemaError as error:
            problems.append(f"schemas/{name}.schema.json is not a valid draft 2020-12 schema: {error.message}")
    return problems


def resolve_pointer(document, pointer, where):
    node = document
    if pointer in ("", "/"):
        return node
    for token in pointer.lstrip("/").split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(f"{where}: the JSON pointer {pointer!r} does not resolve")
    return node


def load_reference(reference, base_document, base_path):
    target, _, pointer = reference.partition("#")
    if not target:
        return resolve_pointer(base_document, pointer, reference), base_document, base_path
    path = (base_path.parent / target).resolve()
    if not path.is_file():
        raise KeyError(f"$ref {reference!r}: no file {path}")
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".yaml", ".yml"):
        import yaml
        document = yaml.safe_load(text)
    else:
        document = json.loads(text)
    return resolve_pointer(document, pointer, reference), document, path


def check_asyncapi():
    """Structural checks of asyncapi.yaml without the AsyncAPI tooling: version, every $ref resolves,
    every message payload is one of the schemas, every example of a message validates against the
    message's schema, and every example file is referenced."""
    try:
        import yaml
    except ImportError:
        return ["PyYAML is not installed (scripts/requirements-test.txt)"]
    path = CONTRACT / "asyncapi.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    problems = []
    if document.get("asyncapi") != "3.0.0":
        problems.append(f"asyncapi.yaml: asyncapi is {document.get('asyncapi')!r}, expected '3.0.0'")
    referenced_files = set()

    def walk(node, trail):
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str):
                try:
                    _, _, target = load_reference(reference, document, path)
                    referenced_files.add(target)
                except (KeyError, ValueError) as error:
                    problems.append(f"asyncapi.yaml {trail}: {error}")
            for key, value in node.items():
                walk(value, f"{trail}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{trail}/{index}")

    walk(document, "")
    for section in ("channels", "operations", "components"):
        if section not in document:
            problems.append(f"asyncapi.yaml has no {section}")
    messages = (document.get("components") or {}).get("messages") or {}
    for name, message in messages.items():
        payload = message.get("payload") or {}
        if payload.get("schemaFormat") != "application/schema+json;version=2020-12":
            problems.append(f"asyncapi.yaml message {name}: payload.schemaFormat must name JSON Schema 2020-12")
        reference = (payload.get("schema") or {}).get("$ref", "")
        schema_name = pathlib.Path(reference.partition("#")[0]).name.removesuffix(".schema.json")
        if schema_name not in MESSAGE_SCHEMAS:
            problems.append(f"asyncapi.yaml message {name}: payload.schema must $ref one of the message schemas")
            continue
        for index, example in enumerate(message.get("examples") or []):
            instance = example.get("payload")
            try:
                if isinstance(instance, dict) and "$ref" in instance:
                    instance, _, _ = load_reference(instance["$ref"], document, path)
            except (KeyError, ValueError) as error:
                problems.append(f"asyncapi.yaml message {name} example {index}: {error}")
                continue
            for error in errors_of(schema_name, instance):
                problems.append(f"asyncapi.yaml message {name} example {index}: {error}")
    for example in sorted(EXAMPLES.glob("*.json")):
        if example.resolve() not in referenced_files:
            problems.append(f"examples/{example.name} is not referenced from asyncapi.yaml")
    return problems


def main(arguments):
    if arguments[:1] == ["--manifest"] and len(arguments) == 2:
        with open(arguments[1], encoding="utf-8") as handle:
            for line in handle:
                line = line.rstrip("\n")
                if not line:
                    continue
                schema_name, _, file_path = line.partition("\t")
                errors = validate_file(schema_name, file_path)
                print(json.dumps({"path": file_path, "schema": schema_name, "valid": not errors, "errors": errors}))
        return 0
    if arguments == ["--examples"]:
        problems = check_schemas()
        examples = sorted(EXAMPLES.glob("*.json"))
        for example in examples:
            schema_name = schema_for_example(example)
            if schema_name is None:
                problems.append(f"examples/{example.name}: the name must start with one of {MESSAGE_SCHEMAS}")
                continue
            problems += [f"examples/{example.name}: {error}" for error in validate_file(schema_name, example)]
        problems += check_asyncapi()
        for problem in problems:
            print(problem)
        print(f"{len(examples)} examples, {len(problems)} problems")
        return 1 if problems else 0
    if len(arguments) >= 2 and not arguments[0].startswith("-"):
        failed = False
        for file_path in arguments[1:]:
            errors = validate_file(arguments[0], file_path)
            failed = failed or bool(errors)
            print(f"ok {file_path}" if not errors else f"invalid {file_path}:\n  " + "\n  ".join(errors))
        return 1 if failed else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
