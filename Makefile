# The single entry point. `make notebooks` and `make test` are the README's two commands.
.PHONY: setup notebooks lab demo test test-long bench

PORT ?= 8866
LANGUAGE ?= en

setup:
	bash scripts/setup.sh

# Set up, then serve the teaching notebooks with Voila on 127.0.0.1 (the welcome page's address is printed).
notebooks: setup
	.venv/bin/liverpool serve --port $(PORT) --language $(LANGUAGE)

# The same notebooks in JupyterLab, code visible and editable.
lab: setup
	.venv/bin/liverpool serve --lab --port $(PORT) --language $(LANGUAGE)

# The terminal tour of the API.
demo: setup
	.venv/bin/liverpool demo

test:
	bash scripts/test.sh

# The same checks with the exhaustive budgets (run before a release; docs/testing.md).
test-long:
	bash scripts/test.sh --long

bench: setup
	.venv/bin/liverpool bench --json target/bench.json
