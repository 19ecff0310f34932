"""``--html FILE``: self-contained pages of ``find``, ``explore``, ``check-trace``,
``crosscheck`` and ``verify`` (``pages.py`` builds them, ``page.py`` renders them with the
Jinja2 templates of ``templates/``, ``timeline.py`` draws a run per permanent)."""

from regen_model.html.page import Page, render, write

__all__ = ["Page", "render", "write"]
