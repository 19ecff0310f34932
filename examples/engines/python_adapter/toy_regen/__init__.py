"""A toy regeneration engine (``engine.py``) and its regen-model adapter (``adapter.py``)."""
