"""Acceptance 5 of the server deployment: the Dockerfile passes hadolint, deploy/compose.yaml
validates against the Compose Specification's JSON schema (vendored in deploy/schema/), and
the README's deployment section and the compose file name the same services. No container
runs here: these check the files."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
HADOLINT = Path(sys.executable).parent / "hadolint"
SECTION = "## Deploying with servers"


def hadolint(dockerfile: Path) -> list[dict[str, Any]]:
    """Every finding, whatever its level (a clean file has none)."""
    run = subprocess.run(
        [str(HADOLINT), "--no-fail", "--format", "json", str(dockerfile)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    findings: list[dict[str, Any]] = json.loads(run.stdout)
    return findings


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return loaded


def schema_errors(document: dict[str, Any]) -> list[str]:
    schema = json.loads((DEPLOY / "schema" / "compose-spec.json").read_text())
    validator = jsonschema.Draft7Validator(schema)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def readme_services() -> set[str]:
    """The services the deployment section's topology table names (`name` in column one)."""
    text = (ROOT / "README.md").read_text()
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return {m for m in re.findall(r"^\| `([a-z0-9-]+)`", section, re.MULTILINE)}


def test_the_dockerfile_passes_hadolint() -> None:
    assert hadolint(ROOT / "Dockerfile") == []


def test_hadolint_finds_what_is_wrong(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN apt-get install curl\nCMD warden serve\n")
    assert {f["code"] for f in hadolint(bad)} >= {"DL3007", "DL3025"}


def test_the_compose_file_follows_the_compose_specification() -> None:
    assert schema_errors(compose()) == []


def test_the_schema_check_can_fail() -> None:
    broken = compose()
    broken["services"]["proxy"]["ports"] = {"http": 80}  # a mapping where a list belongs
    broken["services"]["qdrant"]["healthcheck"]["interval"] = 10  # a number, not a duration
    broken["services"]["qdrant"]["restart_policy"] = "always"  # no such key
    assert len(schema_errors(broken)) >= 3


def test_the_readme_and_the_compose_file_name_the_same_services() -> None:
    named = readme_services()
    assert len(named) >= 10, named
    assert named == set(compose()["services"])


def test_the_topology_is_complete() -> None:
    services = compose()["services"]
    wardens = [s for s in services if s.startswith("warden-")]
    assert len(wardens) == 2
    proxy = services["proxy"]
    assert set(proxy["depends_on"]) == set(wardens)
    mongo = [s for s in services if re.fullmatch(r"mongo-\d", s)]
    assert len(mongo) == 3
    for name in mongo:
        assert "--replSet" in services[name]["command"]
    for name in ("langfuse-web", "langfuse-worker"):
        needs = set(services[name]["depends_on"])
        assert {"langfuse-postgres", "langfuse-clickhouse", "langfuse-redis"} <= needs
        assert "langfuse-minio" in needs


@pytest.mark.parametrize("name", sorted(compose()["services"]))
def test_every_long_running_service_has_a_health_check(name: str) -> None:
    service = compose()["services"][name]
    if service.get("restart") == "no":  # one-shot jobs
        return
    assert service["healthcheck"]["test"]


def test_each_stateful_service_keeps_its_data_in_a_named_volume() -> None:
    document = compose()
    declared = set(document["volumes"])
    for name, service in document["services"].items():
        for mount in service.get("volumes", []):
            source = mount.split(":", 1)[0]
            if not source.startswith((".", "$", "/")):
                assert source in declared, f"{name}: {source}"
    for name in ("warden-1", "warden-2", "qdrant", "mongo-1", "langfuse-postgres"):
        assert any(
            ":/" in v and not v.startswith(".") for v in document["services"][name]["volumes"]
        )
    warden_volumes = [set(compose()["services"][w]["volumes"]) for w in ("warden-1", "warden-2")]
    assert warden_volumes[0] != warden_volumes[1]  # each replica holds its own data folder


def test_every_required_variable_is_in_the_env_example() -> None:
    text = (DEPLOY / "compose.yaml").read_text()
    required = set(re.findall(r"\$\{([A-Z0-9_]+):\?", text))
    example = {
        line.split("=", 1)[0]
        for line in (DEPLOY / ".env.example").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    }
    assert required and required <= example, required - example
