"""What the lessons add to other pages, called by the shell (the banner before a page, its exercise after it) and
by the home page (the reader's progress). Nothing here loads a model: an exercise's check imports its page's service
when it runs."""

from __future__ import annotations

from app.lessons import exercises, paths, progress


def before_page(page: str, presenting: bool) -> None:
    """The stop's banner, when the page was opened at a stop of a path."""
    paths.banner(page, presenting)


def after_page(page: str) -> None:
    """The page's exercise, checked against the live model."""
    exercises.exercise(page)


def home() -> None:
    """One line per path begun, with a link to go on (nothing before the reader has begun one)."""
    if progress.any_progress():
        paths.progress_lines(frozenset(exercises.EXERCISES))
