"""The command line and the tools around the engine.

- :mod:`liverpool.tools.cli`: ``liverpool`` and its subcommands; the shared ``--rules``,
  ``--ray`` and ``--progress`` options.
- :mod:`liverpool.tools.progress`: the progress bar of long runs.
- :mod:`liverpool.tools.scenarios`: ``liverpool conformance``, rule-conformance scenario files.
- :mod:`liverpool.tools.bench`: ``liverpool bench``, the benchmark.
- :mod:`liverpool.tools.demo`: ``liverpool demo``, a terminal tour of the API.
- :mod:`liverpool.tools.serve`, :mod:`liverpool.tools.serve_voila`,
  :mod:`liverpool.tools.serve_kernels`: ``liverpool serve``, the notebooks on 127.0.0.1.

Nothing is imported here: the command line imports a subcommand's module only when it runs.
"""
