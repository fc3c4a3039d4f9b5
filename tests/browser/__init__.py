"""The real-browser test (docs/browser-test.md)."""
