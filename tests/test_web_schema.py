"""The REST lobby against its own OpenAPI schema, with schemathesis: generated requests
(valid and invalid) never cause a server error and every response matches the schema."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from cardhall.web.app import create_app

# loading the schema runs the app once, so its database directory exists from import on;
# the fixture below removes it after the test
_DB = Path(tempfile.mkdtemp(prefix="cardhall-schema-")) / "s.db"
atexit.register(shutil.rmtree, _DB.parent, True)  # also in workers that never run the test
APP = create_app(f"sqlite:///{_DB}", bot_delay=0.0, requests_per_second=10_000.0)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def running_app() -> Iterator[None]:
    try:
        with TestClient(APP) as client:  # runs the lifespan (migrations, service, hub)
            # a real table, so that some generated ids hit an existing row
            client.post("/api/tables", json={"game": "abstrac", "bots": ["random"]})
            yield
    finally:
        shutil.rmtree(_DB.parent, ignore_errors=True)


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    # Every check but "schema-valid data is accepted": a well-formed request may still be
    # refused for what it means (an unknown game, too many bots), with a documented 4xx.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
