"""JSON Schemas of the ``--json`` documents of every command (``regen_model.jsondoc``)."""
