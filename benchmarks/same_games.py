"""Same seed + same choices = same game: a fingerprint of random play, to compare two trees.

    PYTHONPATH=TREE_A/src python3 benchmarks/same_games.py > a.txt
    PYTHONPATH=TREE_B/src python3 benchmarks/same_games.py > b.txt
    diff a.txt b.txt        # empty: both trees play exactly the same games

For every game and player count below, and for each way of choosing (``list``: an index
into ``legal_actions()``; ``rollout``: ``random_action``; ``playout``: ``playout_action``),
plays ``--games`` matches with one seeded chooser and hashes every action (and, for one
match in ten, every legal list), the final scores and the game's generator state.  Some
actions are applied with the legality check and some states are cloned mid-match, so
those paths are covered too.  Run it before every change meant to make the engine faster.

``--play-out``: the ``rollout`` and ``playout`` matches are played by ``State.play_out``
instead, a round per call, and their history hashed: the lines must equal those of the
step-by-step loop (of this tree or another).
"""

from __future__ import annotations

import argparse
import hashlib

from pysaboteur.engine.rng import Rng
from pysaboteur.registry import make_game

CASES = [("duel", None), ("solo", None), ("classic", 4), ("classic", 10), ("expansion", 2),
         ("expansion", 7), ("expansion", 12), ("lost-mines", 3), ("lost-mines", 5),
         ("lost-mines", 9)]


def fingerprint(name: str, players: int | None, mode: str, games: int,
                play_out: bool = False) -> str:
    game = make_game(name, players)
    digest = hashlib.sha256()
    pick = Rng(12345)
    for seed in range(games):
        state = game.new_state(seed)
        if play_out and mode != "list":
            while not state.is_terminal:
                state.play_out(pick, policy="playout" if mode == "playout" else "random")
            for action in state.history:
                digest.update(repr(action).encode())
        while not state.is_terminal:
            if mode == "list":
                legal = state.legal_actions()
                digest.update(repr(legal).encode() if seed % 10 == 0 else
                              str(len(legal)).encode())
                action = legal[pick.below(len(legal))]
            elif mode == "rollout":
                action = state.random_action(pick)
            else:
                action = state.playout_action(pick)
            digest.update(repr(action).encode())
            state.apply(action, check=seed % 25 == 0)
            if seed % 50 == 1 and len(state.history) % 7 == 0:
                state = state.clone()
        digest.update(repr(state.scores()).encode() + repr(state.returns()).encode())
        digest.update(repr(state.rng.state).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="matches per game and mode")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--play-out", action="store_true",
                        help="rollout and playout matches by State.play_out")
    args = parser.parse_args()
    for name, players in CASES:
        if args.game and name != args.game:
            continue
        for mode in ("list", "rollout", "playout"):
            games = args.games if mode != "playout" else args.games // 3
            digest = fingerprint(name, players, mode, games, args.play_out)
            print(name, players, mode, digest, flush=True)


if __name__ == "__main__":
    main()
