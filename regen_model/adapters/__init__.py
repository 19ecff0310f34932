"""Adapters that run our scenarios on other rules engines, one subpackage per engine.

An adapter translates our start state and actions into the engine's own terms and reads back
the observable projection (DESIGN.md section 5). Each adapter depends on an optional extra
(``pip install regen-model[phase]``), so nothing here is imported by the core package.
"""
