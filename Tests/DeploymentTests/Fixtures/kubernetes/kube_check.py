#!/usr/bin/env python3
"""Renders the repository's kustomizations and validates what they produce, offline.

    kube_check.py DIR [--kubernetes-version 1.30.0] [--kubectl PATH]

prints one JSON object: {"resources": [...], "errors": [...], "kubectl": "..."}.

- Rendering: the subset of kustomize that deploy/kubernetes uses (resources, components, namespace, images,
  patches as strategic-merge or JSON 6902). Anything else in a kustomization is an error, so that a manifest
  the renderer does not understand cannot pass unnoticed. With --kubectl, `kubectl kustomize DIR` renders the
  same directory and the two results are compared ("same", or what differs).
- Built-in kinds are validated with PyPI's kubernetes-validate against the Kubernetes OpenAPI schemas of the
  given version, strictly (unknown fields refused).
- Custom resources (KEDA's ScaledObject, the Prometheus Operator's ServiceMonitor and PrometheusRule) are
  validated against the openAPIV3Schema of their CRDs in crds/ (copied from the projects' releases), made
  strict the same way: an object schema with properties and nothing else allowed refuses other fields, as
  `kubectl apply`'s strict field validation does.
"""

import argparse
import copy
import json
import pathlib
import re
import subprocess
import sys

import jsonschema
import kubernetes_validate
import yaml

HERE = pathlib.Path(__file__).resolve().parent
CLUSTER_SCOPED = {
    "Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "PersistentVolume",
    "StorageClass", "PriorityClass", "APIService", "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
}
KUSTOMIZATION_FIELDS = {"apiVersion", "kind", "resources", "components", "namespace", "images", "patches"}


class RenderError(Exception):
    pass


def load_documents(path):
    with open(path, encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc is not None]


def kustomization_file(directory):
    for name in ("kustomization.yaml", "kustomization.yml", "Kustomization"):
        candidate = directory / name
        if candidate.is_file():
            return candidate
    raise RenderError(f"{directory}: no kustomization.yaml")


def render(directory, expected_kind="Kustomization"):
    """The resources a kustomization directory produces."""
    path = kustomization_file(directory)
    (spec,) = load_documents(path)
    kind = spec.get("kind", "Kustomization")
    if kind != expected_kind:
        raise RenderError(f"{path}: kind {kind}, expected {expected_kind}")
    unknown = set(spec) - KUSTOMIZATION_FIELDS
    if unknown:
        raise RenderError(f"{path}: fields this renderer does not implement: {sorted(unknown)}")
    resources = []
    for entry in spec.get("resources", []):
        target = (directory / entry).resolve()
        resources += render(target) if target.is_dir() else load_documents(target)
    return apply_kustomization(spec, directory, resources)


def apply_kustomization(spec, directory, resources):
    for entry in spec.get("components", []):
        component = (directory / entry).resolve()
        (component_spec,) = load_documents(kustomization_file(component))
        if component_spec.get("kind") != "Component":
            raise RenderError(f"{component}: not a Component")
        unknown = set(component_spec) - KUSTOMIZATION_FIELDS
        if unknown:
            raise RenderError(f"{component}: fields this renderer does not implement: {sorted(unknown)}")
        added = []
        for item in component_spec.get("resources", []):
            target = (component / item).resolve()
            added += render(target) if target.is_dir() else load_documents(target)
        resources = apply_transformers(component_spec, component, resources + added)
    return apply_transformers(spec, directory, resources)


def apply_transformers(spec, directory, resources):
    resources = copy.deepcopy(resources)
    for patch in spec.get("patches", []):
        apply_patch(patch, directory, resources)
    if "namespace" in spec:
        for resource in resources:
            if resource["kind"] not in CLUSTER_SCOPED:
                resource.setdefault("metadata", {})["namespace"] = spec["namespace"]
    for image in spec.get("images", []):
        for resource in resources:
            set_image(resource, image)
    return resources


def identity(resource):
    metadata = resource.get("metadata", {})
    return (resource.get("apiVersion"), resource.get("kind"), metadata.get("namespace", ""), metadata.get("name"))


def matches(resource, target):
    group, _, version = resource["apiVersion"].rpartition("/")
    checks = {
        "group": group, "version": version, "kind": resource["kind"],
        "name": resource["metadata"].get("name", ""), "namespace": resource["metadata"].get("namespace", ""),
    }
    for key, value in target.items():
        if key not in checks:
            raise RenderError(f"patch target field {key} is not implemented")
        if not re.fullmatch(value, checks[key]):
            return False
    return True


def apply_patch(patch, directory, resources):
    if "path" in patch:
        text = (directory / patch["path"]).read_text(encoding="utf-8")
    else:
        text = patch["patch"]
    documents = [doc for doc in yaml.safe_load_all(text) if doc is not None]
    if len(documents) == 1 and isinstance(documents[0], list):
        targets = [r for r in resources if matches(r, patch.get("target", {}))]
        if not targets:
            raise RenderError(f"JSON patch target {patch.get('target')} matches no resource")
        for resource in targets:
            for operation in documents[0]:
                json_patch(resource, operation)
        return
    for document in documents:
        key = (document["apiVersion"], document["kind"], document["metadata"]["name"])
        targets = [r for r in resources if (r["apiVersion"], r["kind"], r["metadata"]["name"]) == key]
        if "target" in patch:
            targets = [r for r in targets if matches(r, patch["target"])]
        if len(targets) != 1:
            raise RenderError(f"strategic merge patch {key} matches {len(targets)} resources")
        merged = strategic_merge(targets[0], document)
        targets[0].clear()
        targets[0].update(merged)


def strategic_merge(base, patch):
    """Maps merge member by member (null deletes); lists of named objects merge by name; other lists are
    replaced. The part of kubectl's strategic merge these manifests rely on."""
    if isinstance(base, dict) and isinstance(patch, dict):
        merged = dict(base)
        for key, value in patch.items():
            if value is None:
                merged.pop(key, None)
            elif key in merged:
                merged[key] = strategic_merge(merged[key], value)
            else:
                merged[key] = value
        return merged
    if isinstance(base, list) and isinstance(patch, list) and patch and all(
            isinstance(item, dict) and "name" in item for item in base + patch):
        merged = list(base)
        for item in patch:
            index = next((i for i, old in enumerate(merged) if old["name"] == item["name"]), None)
            if index is None:
                merged.append(item)
            else:
                merged[index] = strategic_merge(merged[index], item)
        return merged
    return copy.deepcopy(patch)


def json_patch(document, operation):
    op, path = operation["op"], operation["path"]
    parts = [part.replace("~1", "/").replace("~0", "~") for part in path.split("/")[1:]]
    parent = document
    for part in parts[:-1]:
        parent = parent[int(part)] if isinstance(parent, list) else parent[part]
    last = parts[-1]
    if op in ("add", "replace"):
        value = copy.deepcopy(operation["value"])
        if isinstance(parent, list):
            if last == "-":
                parent.append(value)
            elif op == "add":
                parent.insert(int(last), value)
            else:
                parent[int(last)] = value
        else:
            if op == "replace" and last not in parent:
                raise RenderError(f"JSON patch replace {path}: no such member")
            parent[last] = value
    elif op == "remove":
        del parent[int(last) if isinstance(parent, list) else last]
    else:
        raise RenderError(f"JSON patch op {op} is not implemented")


def set_image(resource, image):
    pod = resource.get("spec", {}).get("template", {}).get("spec")
    if pod is None:
        return
    for container in pod.get("containers", []) + pod.get("initContainers", []):
        name = re.split(r"[:@]", container.get("image", ""), maxsplit=1)[0]
        if name != image["name"]:
            continue
        new = image.get("newName", name)
        if "digest" in image:
            container["image"] = f"{new}@{image['digest']}"
        elif "newTag" in image:
            container["image"] = f"{new}:{image['newTag']}"
        else:
            rest = container["image"][len(name):]
            container["image"] = new + rest


def crd_schemas():
    schemas = {}
    for path in sorted((HERE / "crds").glob("*.yaml")):
        for crd in load_documents(path):
            group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
            for version in crd["spec"]["versions"]:
                schemas[(f"{group}/{version['name']}", kind)] = strict(version["schema"]["openAPIV3Schema"])
    return schemas


def strict(schema):
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {key: strict(value) for key, value in schema.items()}
    if ("properties" in result and "additionalProperties" not in result
            and not result.get("x-kubernetes-preserve-unknown-fields")):
        result["additionalProperties"] = False
    return result


def validate(resources, kubernetes_version):
    errors = []
    schemas = crd_schemas()
    for resource in resources:
        label = "{}/{}".format(resource.get("kind"), resource.get("metadata", {}).get("name"))
        schema = schemas.get((resource.get("apiVersion"), resource.get("kind")))
        if schema is not None:
            validator = jsonschema.Draft7Validator(schema)
            for error in validator.iter_errors(resource):
                where = "/".join(str(part) for part in error.absolute_path)
                errors.append(f"{label}: {where}: {error.message}")
            continue
        try:
            kubernetes_validate.validate(resource, kubernetes_version, strict=True)
        except kubernetes_validate.ValidationError as error:
            where = "/".join(str(part) for part in error.absolute_path)
            errors.append(f"{label}: {where}: {error.message}")
        except (kubernetes_validate.SchemaNotFoundError, kubernetes_validate.VersionNotSupportedError) as error:
            errors.append(f"{label}: no schema: {error.message}")
    return errors


def compare_with_kubectl(kubectl, directory, resources):
    completed = subprocess.run([kubectl, "kustomize", str(directory)], capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        return f"kubectl kustomize failed: {completed.stderr.strip()}"
    theirs = {identity(r): r for r in yaml.safe_load_all(completed.stdout) if r is not None}
    ours = {identity(r): r for r in resources}
    if set(theirs) != set(ours):
        return f"different resources: only kubectl {sorted(set(theirs) - set(ours))}, only ours {sorted(set(ours) - set(theirs))}"
    differing = [key for key in ours if json.dumps(ours[key], sort_keys=True) != json.dumps(theirs[key], sort_keys=True)]
    if differing:
        key = differing[0]
        return f"{len(differing)} resources differ, e.g. {key}: ours {json.dumps(ours[key], sort_keys=True)} kubectl {json.dumps(theirs[key], sort_keys=True)}"
    return "same"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=pathlib.Path)
    parser.add_argument("--kubernetes-version", default="1.30.0")
    parser.add_argument("--kubectl")
    arguments = parser.parse_args()
    try:
        resources = render(arguments.directory.resolve())
    except (RenderError, OSError, KeyError, IndexError, ValueError, yaml.YAMLError) as error:
        print(json.dumps({"resources": [], "errors": [f"render: {error}"], "kubectl": "not compared"}))
        return 0
    output = {"resources": resources, "errors": validate(resources, arguments.kubernetes_version)}
    output["kubectl"] = (compare_with_kubectl(arguments.kubectl, arguments.directory, resources)
                         if arguments.kubectl else "not compared")
    print(json.dumps(output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
