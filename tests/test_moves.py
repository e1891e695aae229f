"""Counting and ranking passes without listing them agrees with the list."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pysaboteur.engine.moves import (
    card_combinations,
    combination_count,
    nth_combination,
    nth_pass,
    pass_actions,
    pass_count,
)

hands = st.lists(st.sampled_from("abcdefg"), max_size=8)


@given(hand=hands, most=st.integers(1, 3))
def test_pass_ranking_matches_the_list(hand: list[str], most: int) -> None:
    listed = pass_actions(hand, most)
    assert pass_count(hand, most) == len(listed)
    assert [nth_pass(hand, most, i) for i in range(len(listed))] == listed
    assert len(set(listed)) == len(listed)


@given(hand=hands, n=st.integers(1, 4))
def test_combination_ranking_matches_the_list(hand: list[str], n: int) -> None:
    listed = card_combinations(hand, n)
    assert combination_count(hand, n) == len(listed)
    assert [nth_combination(hand, n, i) for i in range(len(listed))] == listed


def test_passes_are_shared_values() -> None:
    assert pass_actions(["a", "b"], 2)[2] is nth_pass(["b", "a"], 2, 2)
