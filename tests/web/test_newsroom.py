"""The newsroom (``companion.live.newsroom``): a game's committed versions are drawn into news off
the committing thread, and the broker, and whoever waits for the answer, hear of them only once
they are drawn. Plain Python: a broker, a stand-in drawing, no app."""

from __future__ import annotations

import threading

from companion.live.broker import Broker
from companion.live.newsroom import Newsroom

WAIT = 10  # seconds: far past what a drawing here takes; a failure, not a measure


def _read(broker: Broker, game_id: str) -> Broker:
    broker.read_in(game_id, "en")
    return broker


def test_a_game_no_page_reads_is_told_at_once_on_the_committing_thread():
    broker = Broker()
    drawn = []
    newsroom = Newsroom(broker, lambda game_id, versions, langs: drawn.append(game_id) or {})
    newsroom.committed({"g1": {3: frozenset({"cash"})}})
    answered = []
    newsroom.after(lambda: answered.append(threading.current_thread()))
    assert broker.latest("g1") == 3 and drawn == []
    assert answered == [threading.current_thread()]


def test_a_read_game_is_told_only_once_its_news_is_drawn_and_its_answer_waits_for_it():
    broker = _read(Broker(), "g1")
    drawing, may_finish = threading.Event(), threading.Event()

    def draw(game_id, versions, langs):
        drawing.set()
        assert may_finish.wait(WAIT)
        return {}

    newsroom = Newsroom(broker, draw)
    newsroom.committed({"g1": {5: frozenset({"cash"})}})
    answered = threading.Event()
    newsroom.after(answered.set)
    assert drawing.wait(WAIT)
    assert broker.latest("g1") is None and not answered.is_set()
    may_finish.set()
    assert answered.wait(WAIT)
    assert broker.latest("g1") == 5
    newsroom.stop(wait=WAIT)


def test_versions_queued_together_are_drawn_together_once():
    broker = _read(Broker(), "g1")
    started, may_finish = threading.Event(), threading.Event()
    drawings: list[list[int]] = []

    def draw(game_id, versions, langs):
        drawings.append(sorted(versions))
        started.set()
        assert may_finish.wait(WAIT)
        return {}

    newsroom = Newsroom(broker, draw)
    newsroom.committed({"g1": {1: frozenset({"cash"})}})
    assert started.wait(WAIT)  # the first is being drawn: the next two wait together
    newsroom.committed({"g1": {2: frozenset({"cash"})}})
    newsroom.committed({"g1": {3: frozenset({"feed"})}})
    may_finish.set()
    newsroom.wait(WAIT)
    assert drawings == [[1], [2, 3]]
    assert broker.parts_since("g1", 0) == frozenset({"cash", "feed"})
    newsroom.stop(wait=WAIT)


def test_a_drawing_that_fails_still_tells_the_versions_and_answers():
    broker = _read(Broker(), "g1")

    def draw(game_id, versions, langs):
        raise RuntimeError("a template that cannot be drawn")

    newsroom = Newsroom(broker, draw)
    newsroom.committed({"g1": {7: frozenset({"cash"})}})
    answered = threading.Event()
    newsroom.after(answered.set)
    assert answered.wait(WAIT)
    assert broker.latest("g1") == 7 and broker.news_since("g1", 6, 7) == [None]
    newsroom.stop(wait=WAIT)


def test_a_broker_that_fails_to_hear_still_lets_the_answer_through():
    broker = _read(Broker(), "g1")
    newsroom = Newsroom(broker, lambda game_id, versions, langs: {})

    def broken(*args, **kwargs):
        raise RuntimeError("a broker's bug")

    broker.publish_all = broken  # type: ignore[method-assign]
    newsroom.committed({"g1": {1: frozenset({"cash"})}})
    answered = threading.Event()
    newsroom.after(answered.set)
    assert answered.wait(WAIT)
    newsroom.stop(wait=WAIT)
