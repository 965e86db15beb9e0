"""Test helpers shared across test suites (local servers, fixtures)."""
