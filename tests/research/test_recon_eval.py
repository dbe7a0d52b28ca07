"""`research.recon_eval`: a recon checkpoint's planner against a variant, per seat."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest

import isz
from isz.nn import ModelConfig, build_model, save_checkpoint
from research.recon_eval import build, main, parser


@pytest.fixture
def run(capsys):
    """``run(*args)``: ``main(args)`` as (returncode, stdout, stderr)."""
    def call(*args):
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)
    return call


NETWORK_PARTICLES = {"belief": {"name": "particle", "particles": 40}, "belief_policy": "network"}


def _checkpoint(tmp_path, planner=NETWORK_PARTICLES, name="r.pt"):
    """An untrained recon planner (5 slots, 7 turns); by default its filter is 40 particles
    whose adversary plays the network."""
    game = isz.make_game("recon", slots=5, turns=7, fuel=3)
    cfg = ModelConfig(width=8, depth=1)
    return save_checkpoint(tmp_path / name, model=build_model(game, cfg), game=game,
                           model_cfg=cfg, extra={"planner": planner})


def test_planner_against_its_uniform_motion_twin(tmp_path, run):
    ck = _checkpoint(tmp_path)
    out = tmp_path / "o.json"
    r = run(str(ck), "--opponent", "planner_uniform", "--deals", "6",
             "--iterations", "4", "--output", str(out))
    assert r.returncode == 0, r.stderr
    seats = json.loads(out.read_text())["seats"]
    for row in seats:
        recon, adversary = row["seats"]
        assert 0 <= recon["score"] <= 1 and recon["se"] >= 0
        assert abs((recon["score"] + adversary["score"]) / 2 - row["score"]) < 1e-9
        assert row["seconds_per_decision"] > 0
    # zero-sum, two agents: A's recon seat wins exactly when B's adversary seat loses
    assert abs(seats[0]["seats"][0]["score"] + seats[1]["seats"][1]["score"] - 1) < 1e-9
    # budgets per seat: 4 simulations at the recon's 4 decisions, 2 at the adversary's 3
    r = run(str(ck), "--opponent", "planner_uniform", "--deals", "2",
             "--iterations", "4", "--adversary-iterations", "2", "--output", str(out))
    assert r.returncode == 0, r.stderr
    for row in json.loads(out.read_text())["seats"]:
        assert abs(row["simulations_per_decision"] - (4 * 4 + 3 * 2) / 7) < 1e-9
    # A's filter swapped: the exact filter, or another particle count; B's stays as trained
    for flags, spec in ((["--exact", "--policy-temperature", "0.5"],
                         {"name": "bayes", "policy_temperature": 0.5}),
                        (["--particles", "7"], {"name": "particle", "particles": 7})):
        _, (a, b) = build(parser().parse_args([str(ck), "--opponent", "planner_uniform",
                                               "--iterations", "2", *flags]))
        assert a.knobs["belief"] == spec and b.knobs["belief"] == NETWORK_PARTICLES["belief"]
        r = run(str(ck), "--deals", "1", "--iterations", "2", *flags, "--output", str(out))
        assert r.returncode == 0, r.stderr
    bad = run(str(ck), "--deals", "1", "--particles", "0")
    assert bad.returncode == 2 and "particles" in bad.stderr and "0" in bad.stderr
    bad = run(str(ck), "--deals", "1", "--policy-mix", "1.5")
    assert bad.returncode == 2 and "policy_mix" in bad.stderr and "1.5" in bad.stderr
    bad = run(str(ck), "--opponent", "cheat_uct", "--deals", "1")
    assert bad.returncode == 2 and "cheat_uct" in bad.stderr


def test_filter_diagnostics(tmp_path, run):
    ck = _checkpoint(tmp_path)
    out = tmp_path / "o.json"
    r = run(str(ck), "--opponent", "so_ismcts", "--deals", "3", "--iterations", "4",
             "--filter-diagnostics", "--policy-mix", "0.3", "--output", str(out))
    assert r.returncode == 0, r.stderr
    diag = json.loads(out.read_text())["filter_diagnostics"]
    assert diag["games"] == 6 and diag["decisions"] >= 6  # every game has recon decisions
    for name in ("network", "uniform", "own"):  # own: A's filter, mixed with uniform
        assert 0 < diag[name]["p_true"] <= 1 and diag[name]["log_p_true"] <= 0
        assert 1 <= diag[name]["distinct_worlds"] <= 256
        assert set(diag[name]["p_true_by_turn"]) <= {str(t) for t in range(0, 7, 2)}
    assert diag["log_p_diff_se"] >= 0 and "network - uniform" in r.stdout
    assert diag["log_p_diff_own_se"] >= 0 and "own - uniform" in r.stdout
    # every adversary move before a recon decision, scored under each motion model
    mv = diag["moves"]
    assert mv["moves"] == 6 * 3 and mv["last_turn"] == 5
    assert abs(mv["uniform"]["log_lik"] - math.log(1 / 3)) < 1e-12
    # a mixture's log-likelihood is at least the mix of the two (log is concave)
    assert mv["mix=0.5"]["log_lik"] >= (mv["network"]["log_lik"] + math.log(1 / 3)) / 2 - 1e-12
    assert mv["network"]["log_lik"] < 0 and 0 <= mv["network_argmax_rate"] <= 1
    last = diag["last_move"]  # one last recon move a game, scored under each filter
    assert last["decisions"] == 6 and all(0 <= last[k]["win"] <= 1 for k in ("network", "own"))
    assert last["network_minus_uniform"]["se"] >= 0
    split = diag["moves_by_adversary"]  # A moved as the adversary in B's recon games
    assert set(split) == {"A", "B"} and split["A"]["moves"] == split["B"]["moves"] == 9
    # a planner whose belief is no recon filter has nothing to compare
    ck2 = _checkpoint(tmp_path, {"belief": "uniform"}, "u.pt")
    bad = run(str(ck2), "--deals", "1", "--iterations", "2", "--filter-diagnostics")
    assert bad.returncode == 2 and "--filter-diagnostics" in bad.stderr


def test_planner_knobs_reach_agent_a(tmp_path, run):
    from isz.cli import key_values

    assert key_values(["expand_after=16", "leaf_mix=1.0", "tree=so"], "--planner-knob") == \
        {"expand_after": 16, "leaf_mix": 1.0, "tree": "so"}
    ck = _checkpoint(tmp_path)
    out = tmp_path / "o.json"
    r = run(str(ck), "--deals", "2", "--iterations", "8",
             "--planner-knob", "expand_after=4", "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["config"]["planner_knob"] == ["expand_after=4"]
    _, (a, b) = build(parser().parse_args([str(ck), "--opponent", "planner_uniform",
                                           "--planner-knob", "expand_after=4"]))
    assert a.knobs["expand_after"] == 4 and b.knobs["expand_after"] == 1  # B: as recorded
    for pair, words in (("expand_after=0", "expand_after"), ("nope=1", "nope"),
                        ("expand_after", "KEY=VALUE")):
        bad = run(str(ck), "--deals", "1", "--planner-knob", pair)
        assert bad.returncode == 2 and words in bad.stderr, bad.stderr
