"""The presets of conf/experiment: each composes over the declared schema to a valid
training config, and a preset that continues another run fails in one line until the
command line names that run."""

from __future__ import annotations

import pytest
from omegaconf import OmegaConf

from isz import IszError
from isz.cli import compose, unknown_keys
from isz.cli.conf import conf_dir
from isz.cli.train import check_given, store_schema
from isz.training.config import TrainConfig, validate

PRESETS = sorted(p.stem for p in (conf_dir() / "experiment").glob("*.yaml"))
# what a preset leaves to the command line, and what the command line needs to run it
GIVEN = {"nash": ["game.name=goofspiel", "game.module=examples.goofspiel"],
         "oh_hell_teacher_long": ["trainer.continue_from={tmp}/last.pt"]}


@pytest.fixture(scope="module", autouse=True)
def schema():
    store_schema()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_composes_to_a_valid_config(preset, goofspiel, tmp_path):
    (tmp_path / "last.pt").write_bytes(b"")  # a source checkpoint must exist
    given = [g.format(tmp=tmp_path) for g in GIVEN.get(preset, [])]
    cfg = compose(conf_dir(), "train", [f"experiment={preset}", *given])
    unknown_keys(cfg, TrainConfig, free=("game.params",))
    check_given(cfg)
    typed = OmegaConf.to_object(cfg)
    validate(typed)
    if preset not in ("default", "nash", "alphazero"):
        assert typed.experiment.name == preset
        assert typed.experiment.run_dir == f"runs/{preset}"


def test_a_preset_extends_its_parent():
    """kuhn_nash_magnet = kuhn_nash = nash on Kuhn poker, each adding its own keys."""
    def composed(*overrides):
        return OmegaConf.to_container(compose(conf_dir(), "train", list(overrides)),
                                      resolve=True)

    nash = composed("experiment=nash", "game=kuhn_poker", "experiment.name=kuhn_nash")
    assert composed("experiment=kuhn_nash") == nash
    magnet = composed("experiment=kuhn_nash_magnet", "experiment.name=kuhn_nash")
    own = {"simulations": 128, "magnet": "network", "magnet_every": 20,
           "root_selection": "uniform", "planner_eta": 0.5}
    assert magnet["search"] == {**nash["search"], **own}
    assert magnet["trainer"] == {**nash["trainer"], "iterations": 200}
    assert {k: v for k, v in magnet.items() if k not in ("search", "trainer")} == \
        {k: v for k, v in nash.items() if k not in ("search", "trainer")}


def test_a_continued_run_names_its_source_or_fails_in_one_line():
    cfg = compose(conf_dir(), "train", ["experiment=oh_hell_teacher_long"])
    with pytest.raises(IszError) as info:
        check_given(cfg)
    assert str(info.value) == (
        "experiment oh_hell_teacher_long needs trainer.continue_from=... on the command line "
        "(conf/experiment/oh_hell_teacher_long.yaml says what it is)")
    source = "runs/oh_hell_teacher/checkpoints/last.pt"
    cfg = compose(conf_dir(), "train", ["experiment=oh_hell_teacher_long",
                                        f"trainer.continue_from={source}"])
    check_given(cfg)
    assert OmegaConf.to_object(cfg).trainer.continue_from == source


def _composed(preset: str) -> dict:
    """A preset's whole config as a plain dict (its name blanked out)."""
    return OmegaConf.to_container(
        compose(conf_dir(), "train", [f"experiment={preset}", "experiment.name=x"]),
        resolve=True)


def test_leduc_nash_v2_is_leduc_nash_average_with_the_target_fixes():
    """leduc_nash_v2 changes only the targets' settings and the iteration's size."""
    base, v2 = _composed("leduc_nash_average"), _composed("leduc_nash_v2")
    assert v2["search"] == {**base["search"], "common_worlds": True}
    assert v2["selfplay"] == {**base["selfplay"], "all_hands": True,
                              "games_per_iteration": 1024}
    assert v2["trainer"] == {**base["trainer"], "iterations": 150, "buffer_size": 48000,
                             "steps_per_iteration": 200}
    assert base["trainer"]["average_from"] == 10 and base["belief"]["name"] == "posterior"
    assert {k: v for k, v in v2.items() if k not in ("search", "selfplay", "trainer")} == \
        {k: v for k, v in base.items() if k not in ("search", "selfplay", "trainer")}


def test_leduc_nash_nfsp_is_leduc_nash_average_with_the_average_policy():
    """leduc_nash_nfsp adds NFSP's average-policy network (from 10, linear), runs 250 its."""
    base, nfsp = _composed("leduc_nash_average"), _composed("leduc_nash_nfsp")
    assert base["trainer"]["average_policy_from"] == 0
    assert nfsp["trainer"] == {**base["trainer"], "average_policy_from": 10,
                               "average_policy_weight": "linear",
                               "iterations": 250, "eval_every": 25}
    assert {k: v for k, v in nfsp.items() if k != "trainer"} == \
        {k: v for k, v in base.items() if k != "trainer"}


def test_leduc_nash_nfsp_iterates_is_the_measured_recipe():
    """leduc_nash_nfsp_iterates is leduc_nash_nfsp with eta 10 and a uniform average of the
    network iterates from a 2,000,000-row reservoir, polished 8,000 steps at the end."""
    base, it = _composed("leduc_nash_nfsp"), _composed("leduc_nash_nfsp_iterates")
    assert it["search"] == {**base["search"], "mirror_eta": 10}
    assert it["trainer"] == {**base["trainer"], "average_policy_weight": "uniform",
                             "average_policy_target": "network",
                             "average_policy_buffer": 2_000_000,
                             "average_policy_polish": 8000}
    assert {k: v for k, v in it.items() if k not in ("search", "trainer")} == \
        {k: v for k, v in base.items() if k not in ("search", "trainer")}


def test_leduc_nash_fsp_is_the_iterates_recipe_with_own_games():
    """leduc_nash_fsp is leduc_nash_nfsp_iterates whose average network learns from 4,000
    games of its own an iteration against uniform play instead of self-play's positions."""
    base, fsp = _composed("leduc_nash_nfsp_iterates"), _composed("leduc_nash_fsp")
    assert fsp["trainer"] == {**base["trainer"], "average_policy_games": 4000}
    assert {k: v for k, v in fsp.items() if k != "trainer"} == \
        {k: v for k, v in base.items() if k != "trainer"}


def test_kuhn_nash_fsp_is_the_magnet_recipe_with_an_own_games_average():
    """kuhn_nash_fsp is kuhn_nash_magnet plus an average network of iterates 150-200 from
    own games (leduc_nash_fsp's settings) and a planner with common worlds and step 0.25."""
    base, fsp = _composed("kuhn_nash_magnet"), _composed("kuhn_nash_fsp")
    assert fsp["search"] == {**base["search"], "planner_common_worlds": True,
                             "planner_eta": 0.25}
    assert fsp["trainer"] == {**base["trainer"], "average_policy_from": 150,
                              "average_policy_target": "network",
                              "average_policy_weight": "uniform",
                              "average_policy_games": 4000,
                              "average_policy_buffer": 2_000_000,
                              "average_policy_polish": 8000}
    assert {k: v for k, v in fsp.items() if k not in ("search", "trainer")} == \
        {k: v for k, v in base.items() if k not in ("search", "trainer")}
