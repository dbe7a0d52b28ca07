"""isz-play: a person plays through a pseudo-terminal, as at a real terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

import isz
from isz.cli import play
from isz.evaluation.table import label, parse_move
from isz.evaluation.table_config import PlayConfig
from isz.evaluation.table_session import build_agents, resolve
from isz.nn import ModelConfig, build_model, save_checkpoint
from tests.cli.conftest import console_script
from tests.conftest import random_decision

PROMPT = "your move (letter or name, q to quit)> "


class Terminal:
    """The installed isz-play on a pseudo-terminal: read until a pattern, type a line."""

    def __init__(self, tmp_path: Path, *args: str):
        master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [console_script("isz-play"), *args, f"hydra.run.dir={tmp_path / 'run'}"],
            stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, close_fds=True)
        os.close(slave)
        self.fd, self.text = master, ""

    def expect(self, *patterns: str, timeout: float = 120.0) -> str:
        """Read until one of ``patterns`` (regexes) appears after what was consumed;
        return the text up to and including the match."""
        deadline = time.monotonic() + timeout
        while True:
            for p in patterns:
                m = re.search(p, self.text)
                if m:
                    seen, self.text = self.text[:m.end()], self.text[m.end():]
                    return seen
            left = deadline - time.monotonic()
            assert left > 0, f"timed out waiting for {patterns}; got:\n{self.text[-2000:]}"
            if select.select([self.fd], [], [], min(left, 1.0))[0]:
                try:
                    chunk = os.read(self.fd, 4096).decode(errors="replace")
                except OSError:  # the child closed the terminal
                    chunk = ""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"exited before {patterns}; got:\n{self.text}")
                self.text += chunk.replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> int:
        rc = self.proc.wait(timeout=60)
        os.close(self.fd)
        return rc


def test_kuhn_bad_input_is_asked_again_then_score_and_explanation(tmp_path):
    t = Terminal(tmp_path, "game=kuhn_poker", "agent=random", "seat=0", "seed=4")
    shown = t.expect(re.escape(PROMPT))
    assert re.search(r"your card: [JQK]", shown) and "[a] pass  [b] bet" in shown
    t.type("raise")
    assert "not accepted: 'raise' is not a legal move" in t.expect(re.escape(PROMPT))
    t.type("c")  # no third move
    t.expect(re.escape(PROMPT))
    t.type("bet")
    end = t.expect(r"your total over 1 game\(s\): [+-]\d")
    assert "P0 (you): bet" in end and re.search(r"P1 \(random\): (pass|bet)", end)
    assert re.search(r"cards [JQK][JQK] bets b[pb]", end)  # every card at the end
    assert re.search(r"you: [+-]\d+ \(a (win|loss); score [01] of 1\)", end)
    assert re.search(r"P1 \(random\) played (pass|bet): (pass|bet) 0\.50, (pass|bet) 0\.50",
                     end)
    assert t.close() == 0


def test_oh_hell_hand_and_tricks_are_shown(tmp_path):
    t = Terminal(tmp_path, "game=oh_hell", "agent=random", "seat=1", "seed=2")
    shown = t.expect(re.escape(PROMPT))
    hand = re.search(r"your hand \(P1\): ((?:[SHDC][2-9TJQKA] ?){10})\n", shown)
    assert hand and "trump card" in shown and "[a] bid 0" in shown
    t.type("0")  # the last word of "bid 0"
    for _ in range(10):  # then follow suit with the first listed card
        t.expect(re.escape(PROMPT))
        t.type("a")
    end = t.expect(r"your total over 1 game\(s\)")
    assert re.search(r"trick 10: P\d [SHDC]\w, P\d [SHDC]\w, P\d [SHDC]\w -> P\d", end)
    assert "points [" in end
    assert len(re.findall(r"P[02] \(random\) played", end)) == 2 * 11
    assert t.close() == 0


def _kuhn_checkpoint(tmp_path):
    game = isz.make_game("kuhn_poker")
    cfg = ModelConfig(width=8, depth=1)
    return save_checkpoint(tmp_path / "k.pt", model=build_model(game, cfg), game=game,
                           model_cfg=cfg)


def test_checkpoint_names_the_game_and_the_planner(tmp_path):
    cfg = resolve(PlayConfig(checkpoint=str(_kuhn_checkpoint(tmp_path)), seat=1))
    assert (cfg.game, cfg.agent) == ("kuhn_poker", "planner")
    agents = build_agents(cfg, isz.make_game(cfg.game))
    assert list(agents) == [0] and agents[0].name == "puct_ismcts"


def test_a_checkpoint_of_an_outside_game_imports_its_module(tmp_path, goofspiel):
    """A checkpoint records the module of a game defined outside isz; the table
    imports it (as evaluate does), so the game can be made and the planner seated."""
    game = isz.make_game("goofspiel")
    mc = ModelConfig(width=8, depth=1)
    ck = save_checkpoint(tmp_path / "g.pt", model=build_model(game, mc), game=game,
                         model_cfg=mc)
    cfg = resolve(PlayConfig(checkpoint=str(ck)))
    assert (cfg.game, cfg.game_module, cfg.agent) == ("goofspiel", "examples.goofspiel",
                                                      "planner")
    assert list(build_agents(cfg, isz.make_game(cfg.game))) == [1]


@pytest.mark.slow  # compiles the PUCT search in a fresh process (~40 s on 2 shared cores)
def test_planner_from_a_checkpoint_and_quitting(tmp_path):
    ck = _kuhn_checkpoint(tmp_path)
    t = Terminal(tmp_path, f"checkpoint={ck}", "seat=1", "iterations=4", "games=3")
    shown = t.expect(re.escape(PROMPT))
    assert "You are P1; playing: P0 puct_ismcts" in shown
    assert re.search(r"P0 \(puct_ismcts\): (pass|bet)", shown)
    t.type("q")
    assert "you left the table." in t.expect(r"you left the table\.")
    assert t.close() == 0


@pytest.mark.parametrize("args, message", [
    (["game=no_such_game"], "no_such_game"),
    (["game=kuhn_poker", "seat=2"], "seat"),
    (["game=kuhn_poker", "agent=planner"], "checkpoint"),
    (["game=kuhn_poker", "agent=nobody"], "nobody"),
    (["checkpoint=missing.pt"], "missing.pt"),
    (["game_module=no_such_pkg.goofspiel"], "cannot import game module 'no_such_pkg"),
    (["game.name=kuhn_poker"], "game has no keys under it: this command names the game "
                               "with game=NAME (and game_module=MODULE"),
    (["games=0"], "games must be in [1, inf], got 0"),
])
def test_user_errors_exit_2_with_one_line(command, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    r = command(play.main, *args, f"hydra.run.dir={tmp_path}")
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_unknown_key_is_named_by_hydra(command, tmp_path):
    """As in isz-evaluate, the schema rejects a typo before the command runs."""
    r = command(play.main, "game=kuhn_poker", "sead=1", f"hydra.run.dir={tmp_path}")
    assert r.returncode != 0 and "sead" in r.stderr and "Traceback" not in r.stderr


def test_parse_move_reasons():
    game = isz.make_game("oh_hell")
    state = random_decision(game, np.random.default_rng(0), 40)
    view = state.view(state.current_player())
    legal = list(view.legal_actions)
    first = game.action_to_string(legal[0], view.player)
    assert parse_move(first.lower(), view) == (legal[0], "")
    assert parse_move(" a ", view) == (legal[0], "")
    assert parse_move("", view) == (None, "empty input")
    assert parse_move(label(len(legal)), view)[0] is None
    assert "not a legal move" in parse_move("bid 3", view)[1]
    assert [label(i) for i in (0, 25, 26, 27)] == ["a", "z", "aa", "ab"]


def _seen_cards(game, state, p) -> set[str]:
    """Names of the cards ``p`` has seen: own hand, trump card, played cards."""
    from isz.games import tricks_kernel as K

    s = state.data
    seen = [c for c in range(game.num_cards) if (int(s[K.INIT + p]) >> c) & 1]
    seen += [int(s[K.TCARD])] if s[K.TCARD] >= 0 else []
    seen += [int(c) for c in s[K.PLAYS:K.PLAYS + s[K.NPLAYED]]]
    return {game.card_name(c) for c in seen}


@pytest.mark.parametrize("name", ["oh_hell", "tricks", "kuhn_poker", "leduc_poker"])
def test_view_text_shows_own_cards_and_no_hidden_one(name):
    from isz.games import tricks_kernel as K
    from isz.games.leduc_poker import card_name

    game = isz.make_game(name)
    rng = np.random.default_rng(5)
    for steps in range(0, 70, 3):
        state = random_decision(game, rng, steps)
        p = state.current_player()
        text = game.describe_view(state.view(p))
        if name in ("oh_hell", "tricks"):
            assert f"your hand (P{p}): {game._hand_str(int(state.data[K.HAND + p]))}" in text
            shown = set(re.findall(r"\b[SHDC][0-9TJQKA]\b", text))
            assert shown <= _seen_cards(game, state, p), text
        elif name == "kuhn_poker":
            assert f"your card: {'JQK'[state.data[p]]} " in text
        else:
            s = state.data
            assert f"your card: {card_name(s[p])} " in text
            shown = set(re.findall(r"\b[JQK][sh]\b", text))
            assert shown == {card_name(c) for c in (s[p], s[2]) if c >= 0}, text


@pytest.mark.parametrize("name", ["oh_hell", "tricks"])
def test_trick_winners_shown_agree_with_the_rules(name):
    """The winner printed for each trick, the last one included, is the kernel's."""
    from isz.games import tricks_kernel as K
    from tests.conftest import random_history

    game = isz.make_game(name)
    n, rng = game.num_players, np.random.default_rng(0)
    for _ in range(20):
        s = random_history(game, rng, 500).data
        won = [0] * n
        for t in range(game.hand_size):
            won[game._trick_winner(s, t * n)] += 1
        assert won == [int(s[K.WON + p]) for p in range(n)]
