"""The presence tracker: one arrival per visit of a tag, on a clock the test drives."""

import pytest

from hw.rfid.presence import PresenceTracker

A = "04A23B5A1C6E80"
B = "DEADBEEF"


def test_a_tag_is_reported_when_it_first_appears() -> None:
    tracker = PresenceTracker(grace=0.5)
    assert tracker.update([], 0.0) == []
    assert tracker.update([A], 0.1) == [A]


def test_a_tag_left_on_the_reader_is_reported_once() -> None:
    tracker = PresenceTracker(grace=0.5)
    reports = [tracker.update([A], step * 0.065) for step in range(200)]
    assert reports == [[A]] + [[]] * 199


def test_a_short_absence_is_the_same_visit() -> None:
    tracker = PresenceTracker(grace=0.5)
    tracker.update([A], 0.0)
    assert tracker.update([], 0.1) == []
    assert tracker.update([], 0.55) == []  # missing for 0.45 s only
    assert tracker.update([A], 0.59) == []


def test_a_tag_back_after_the_grace_period_is_a_new_visit() -> None:
    tracker = PresenceTracker(grace=0.5)
    tracker.update([A], 0.0)
    tracker.update([], 0.1)
    assert tracker.update([A], 0.6) == [A]  # missing from 0.1 to 0.6


def test_absence_counts_from_the_first_look_that_missed_it() -> None:
    # Silence is not absence: a reader that could not look (its port was gone)
    # leaves the visit open, so a tag lying there all along is not announced again.
    tracker = PresenceTracker(grace=0.5)
    tracker.update([A], 0.0)
    assert tracker.update([A], 60.0) == []


def test_two_tags_each_have_their_own_visit() -> None:
    tracker = PresenceTracker(grace=0.2)
    assert tracker.update([A, B], 0.0) == [A, B]
    assert tracker.update([B], 0.1) == []
    assert tracker.update([B], 0.3) == []
    assert tracker.update([A, B], 0.4) == [A]


def test_a_tag_seen_twice_in_one_look_is_one_arrival() -> None:
    assert PresenceTracker(grace=0.5).update([A, A], 0.0) == [A]


def test_a_zero_grace_ends_a_visit_at_the_first_miss() -> None:
    tracker = PresenceTracker(grace=0.0)
    tracker.update([A], 0.0)
    tracker.update([], 0.1)
    assert tracker.update([A], 0.1) == [A]


def test_a_negative_grace_is_refused() -> None:
    with pytest.raises(ValueError, match="grace must be zero or more seconds, not -1"):
        PresenceTracker(grace=-1)
