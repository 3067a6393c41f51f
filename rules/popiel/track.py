"""The 30-space scoring track, as the players must set it on the board.

    If a player scores more points than there are spaces on the track, they
    flip their marker to the side showing the picture for passing 30 points.
    Their mouse pawn then starts again from the beginning of the scoring track.

Example: Kasia on space 28 scores 4: marker flipped, pawn on space 2, 32
points. Pawns start in front of space 1 (space 0). Exactly 30 points is
space 30, not more points than there are spaces, so the marker is not
flipped; 31 is the first total past the track (marker flipped, space 1), and
60 is space 30 on the flipped side. The marker has only two sides: past 60
the rulebook is silent, so the app tells the table how many times round the
pawn has gone.
"""

from dataclasses import dataclass

SPACES = 30


@dataclass(frozen=True)
class TrackPosition:
    space: int  # 0 = in front of space 1
    flipped: bool  # the marker shows the 30-points side
    laps: int  # completed trips round the track: 0, 1, 2...


def on_track(total: int) -> TrackPosition:
    laps = max(total - 1, 0) // SPACES
    return TrackPosition(total - laps * SPACES, laps >= 1, laps)
