"""JSON Schemas of the ``--json`` documents of every command (``regen_model.jsondoc``): the
``*.schema.json`` files, written from ``define.py`` (``python -m regen_model.schemas.define``)."""
