"""The e2e tests' Chromium, for the launcher's browser test."""

from tests.e2e.conftest import browser  # noqa: F401 (a fixture)
