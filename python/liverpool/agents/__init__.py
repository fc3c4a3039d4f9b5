"""For people who build and evaluate game-playing agents.

- :mod:`liverpool.agents.bots`: the Python bot protocol, :func:`play_game`, the bots by name.
- :mod:`liverpool.agents.envs`: PettingZoo AEC and Gymnasium ``Liverpool-v0`` environments,
  the batched vector env, imitation data from the native bots (extra ``rl``).
- :mod:`liverpool.agents.distributed`: :func:`simulate` on this machine or on Ray.
- :mod:`liverpool.agents.simulation_report`: ``liverpool simulate``, a batch summarised.
- :mod:`liverpool.agents.tournament`: ``liverpool tournament``, bots in rotating seats.

Nothing is imported here, so an optional dependency (gymnasium, ray) is needed only by
the module that uses it.
"""
