"""The measurements behind ``isz-bench`` (`isz.cli.bench`), one JSON-able row each.

`isz.bench.search`: search and arena speed at fixed positions; `isz.bench.belief`:
belief sampling speed, rejection rates, Gibbs mixing; `isz.bench.nn`: self-play,
network forward, training step and planner speed; `isz.bench.distributed`: the whole
training loop in one process, over forked processes and on 1, 2, .. Ray actors.
Nothing else in isz imports these.
"""
