"""What ``help`` prints at ``saboteur play``: each game's notation and its own moves, in
this one table (the engine's notation: :mod:`pysaboteur.engine.notation`)."""

from __future__ import annotations

_CARDS = """\
Cards by code or by hand slot 1..n, cells as x,y (x grows east, y grows south)."""

_PATHS = """\
  3@1,1        put hand card 3 on (1,1)        3@1,1r   ... turned 180 degrees"""

_SABOTEUR = """\
  2>1          broken tool on seat 1 (yourself too); repair: 2>0
  2>0:lantern  a two-tool repair names the tool it mends
  2@8,0        map: look at the goal on (8,0)
  rockfall@3,0 remove the path card on (3,0)
  orient / orient r   choose how a revealed stone goal lies"""

#: per game: its moves (the common lines above and ``?``/``help``/``quit`` come with them)
GAME_HELP: dict[str, str] = {
    "duel": f"""{_PATHS}
  2>1          broken tool on your opponent      2>0  repair in front of you
  2>0:lantern  a two-tool repair names the tool it mends
  2@7,1        map / key / rockfall on a cell
  bribe@2,1    bribe the troll on (2,1) (before or after your option)
  end          end the turn instead of another bribe
  discard 1 2 -break-cart   discard two cards to remove a card in front of you
  pass 1 4     discard 1-2 cards face down, draw as many
  orient / orient r   choose how a revealed goal lies""",
    "solo": f"""{_PATHS}
  2>0          repair in front of you            2>0:lantern  name the tool
  2@9,1        map / key on a cell
  bribe@2,1    bribe the troll on (2,1)           end  end the turn instead
  discard 1 2 -break-cart   discard two cards to remove a card in front of you
  pass 1 4     discard 1-2 cards face down, draw as many
  (drawn sabotage and rockfall cards act at once)""",
    "classic": f"""{_PATHS}
{_SABOTEUR}
  pass 4       discard one card face down, draw one""",
    "expansion": f"""{_PATHS}
{_SABOTEUR}
  theft>2      a theft in front of yourself (you are seat 2)
  hands-off>1  remove the theft in front of seat 1
  trapped>1    trap another player          free>1   free a trapped player
  swap-hand>1  swap hands with seat 1
  swap-hats>1  seat 1 (or you) gets a new dwarf card
  inspection>1 look at seat 1's dwarf card
  discard 1 2 -trapped   discard two cards to remove a card in front of you
  pass 1 4 5   discard 1-3 cards face down, draw as many
  steal>2      at round end, a thief chooses whom to rob""",
    "lost-mines": f"""{_PATHS}
  axe@3,2      a tool (axe, boat, rope) on a matching obstacle
  storm@4,2    remove the path card on (4,2)
  trap@3,2:E   a trap or troll on the joint east of (3,2) (sides N E S W)
  info-mine-dwarf@8,0   information: look at the mine on (8,0)
  info-mine-dwarf>2     ... at seat 2's dwarf card
  info-mine-treasure#3  ... at laid-out treasure 3
  pass 1 2     discard 1-2 cards face down, draw as many
  propose end  ask everybody to end the round  accept / decline  answer it
then move your pawn (1-3 steps, 5 from a campfire):
  move 1,2 2,2 3,2   the cells entered, in order      stay   do not move
  orient / orient r  how a mine you enter lies
  take 2             which treasure you take (by its slot)""",
}


def help_text(game: str, saving: bool) -> str:
    """``help`` for ``game``; ``saving``: the match was started with ``--save FILE``."""
    leave = ("quit  save the record and leave" if saving
             else "quit  leave: the game is NOT saved (play with --save FILE to keep it)")
    return f"{_CARDS}\n{GAME_HELP[game]}\n  ?  your legal moves    help  this text\n  {leave}"
