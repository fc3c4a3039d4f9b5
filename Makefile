# The single entry point. `make demo` and `make test` are the README's two commands.
.PHONY: setup demo test bench notebooks

setup:
	bash scripts/setup.sh

demo: setup
	.venv/bin/liverpool demo

test:
	bash scripts/test.sh

bench: setup
	.venv/bin/liverpool bench --json target/bench.json

notebooks: setup
	.venv/bin/jupyter lab notebooks/
