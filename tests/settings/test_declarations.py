"""The settings declaration: what derives from it (schema, validation, agents, the
generated reference page) and the conf/ files that set only what differs."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import isz
from isz import IszError
from isz.settings import Group, Rule, Setting
from isz.settings import docs as settings_docs
from isz.settings import training as st
from isz.training.config import TrainConfig, validate

ROOT = Path(__file__).resolve().parents[2]


def test_the_reference_page_is_generated_from_the_declarations():
    """In a fresh interpreter: what other tests register (a belief, an agent) is no
    part of the page."""
    p = subprocess.run([sys.executable, "-m", "isz.settings.docs", "--check"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_page_lists_every_setting_and_agent():
    text = settings_docs.render()
    for group in st.GROUPS:
        for s in group:
            assert f"| `{group.name}.{s.name}` |" in text
    for name in isz.agent_names():
        assert f"### {name}\n" in text
    assert "| `uniform` | no |" in text and "| `posterior` | yes |" in text


def test_the_schema_is_the_declaration():
    cfg = TrainConfig()
    for group in st.GROUPS:
        fields = dataclasses.fields(getattr(cfg, group.name))
        assert [(f.name, f.default if f.default is not dataclasses.MISSING else
                 f.default_factory()) for f in fields] == list(group.defaults().items())
    validate(cfg)  # the defaults are valid


@pytest.mark.parametrize("group_dir", ["game", "belief"])
def test_conf_group_files_set_only_what_differs(group_dir):
    """A group option names itself and sets no key to its declared default."""
    group = {"game": st.GAME, "belief": st.BELIEF}[group_dir]
    files = sorted((ROOT / "conf" / group_dir).glob("*.yaml"))
    assert files
    for f in files:
        data = yaml.safe_load(f.read_text())
        assert data["name"] == f.stem
        for key, value in data.items():
            if key != "name":
                assert value != group[key].default, f"{f.name}: {key} repeats its default"


def test_group_files_that_only_repeated_defaults_are_gone():
    for group in ("search", "selfplay", "trainer", "model", "logger"):
        assert not (ROOT / "conf" / group).exists()


@pytest.mark.parametrize("section,key,value,words", [
    ("search", "simulations", 0, r"search.simulations must be in \[1, inf\], got 0"),
    ("search", "c_puct", -1.0, r"search.c_puct must be a number >= 0, got -1.0"),
    ("search", "tree", "forest", r"unknown search.tree 'forest'; allowed: mo, so"),
    ("search", "leaf_mix", 2.0, r"search.leaf_mix must be a number in \[0, 1\] \(0: the "),
    ("search", "mirror_alpha_final", -1.0, r"mirror_alpha_final must be a number >= 0 or null"),
    ("selfplay", "value_target_q_rows", "some", r"allowed: decisions, all"),
    ("trainer", "eval_opponents", ["alphago"], r"unknown trainer.eval_opponents entry "
                                               r"'alphago'; allowed: .*so_ismcts"),
    ("logger", "progress", "yes", r"logger.progress must be true or false, got 'yes'"),
    ("ray", "object_store_mb", 10, r"ray.object_store_mb must be in \[80, inf\]"),
    ("belief", "name", "psychic", r"unknown belief.name 'psychic'; allowed: auto, bayes"),
])
def test_a_bad_value_is_one_line_naming_it_and_what_is_allowed(section, key, value, words):
    cfg = TrainConfig()
    setattr(getattr(cfg, section), key, value)
    with pytest.raises(IszError, match=words) as info:
        validate(cfg)
    assert "\n" not in str(info.value)


def test_belief_policy_only_for_beliefs_that_take_one():
    """conf/belief/uniform.yaml and voids.yaml no longer set a policy they ignore; a
    policy set for such a belief is refused, for a belief that takes one it is kept."""
    assert st.policy_beliefs() == ["bayes", "gibbs", "particle", "posterior", "replay", "sir"]
    cfg = TrainConfig()
    cfg.belief.name, cfg.belief.policy = "voids", "network"
    with pytest.raises(IszError, match=r"belief.policy=network is set, but belief 'voids' "
                                       r"takes no policy; beliefs that do: bayes, gibbs"):
        validate(cfg)
    cfg.belief.name = "posterior"
    validate(cfg)
    cfg.belief.policy = "bayesian"
    with pytest.raises(IszError, match="unknown belief.policy 'bayesian'"):
        validate(cfg)


def test_belief_knobs_are_the_beliefs_own():
    cfg = TrainConfig()
    cfg.belief.name, cfg.belief.knobs = "particle", {"particle": 5}
    with pytest.raises(IszError, match=r"unknown belief.knobs particle for belief "
                                       r"'particle'; allowed: .*particles"):
        validate(cfg)


def test_a_rule_names_the_values_that_break_it():
    cfg = TrainConfig()
    cfg.trainer.iterations, cfg.trainer.average_from = 5, 9
    with pytest.raises(IszError, match=r"average_from must not be past trainer.iterations.*"
                                       r"\(got trainer.average_from=9, trainer.iterations=5\)"):
        validate(cfg)


def test_a_new_setting_flows_from_one_declaration():
    """The mechanism on its own: schema, checks, agent-style resolution, docs rows."""
    depth = Setting("depth", int, 3, "how deep", lo=1)
    mode = Setting("mode", str, "a", "which way", choices=("a", "b"))
    group = Group("toy", "A toy group", [depth, mode],
                  [Rule("mode=b needs depth >= 2", lambda v: v["mode"] == "b" and
                        v["depth"] < 2, ("depth",))])
    cls = group.dataclass("Toy", __name__)
    assert cls() == cls(depth=3, mode="a")
    assert group.resolve({"depth": 4}, "toy") == {"depth": 4, "mode": "a"}
    with pytest.raises(IszError, match=r"unknown knob\(s\) width for agent 'toy'; "
                                       r"allowed: depth, mode"):
        group.resolve({"width": 1}, "toy")
    with pytest.raises(IszError, match=r"mode=b needs depth >= 2 \(got depth=1\)"):
        group.resolve({"mode": "b", "depth": 1}, "toy")
    rows = settings_docs.table(group)
    assert rows[2] == "| `depth` | int | `3` | >= 1 | how deep |"
    assert rows[3] == "| `mode` | str | `a` | a, b | which way |"


def test_frozen_records_check_their_values():
    from isz.search.puct_driver import PUCTConfig
    from isz.selfplay import SelfPlayConfig

    with pytest.raises(IszError, match="unknown tree 'forest'"):
        PUCTConfig(tree="forest")
    with pytest.raises(IszError, match=r"value_target_q must be a number in \[0, 1\]"):
        SelfPlayConfig(value_target_q=2.0)
    assert SelfPlayConfig().puct == PUCTConfig(dirichlet_eps=0.25)
