"""``PythonMtgAdapter``: python-mtg behind the cross-checking framework's adapter protocol.

python-mtg (PyPI ``python-mtg``, module ``mtg``) is a Datalog rules engine with a Python
driver. It differs from the specification in structure, not only in rules: a spell resolves the
moment it is cast (no stack to respond on), no player passes priority, damage is lethal or
forgotten as it is dealt (no marked damage, no separate state-based-action check), and a step's
actions happen as the driver leaves the step. The adapter follows the specification's step
structure with the step-level information the framework sends (``SpecStep``: what the step did,
never the rules that made it happen) and does each thing with python-mtg's own functions:

* a cast or an activation is held until the specification says it resolved
  (``resolved:NAME``); then the real card is cast from its caster's hand
  (``driver._cast_spell``, with the chosen target forced where python-mtg lets one be chosen),
  or the ability row python-mtg built from the Oracle text is put on its stack and resolved;
* damage dealt by an effect is held until the specification checks state-based actions (a
  player would receive priority, or the check action), then dealt by python-mtg's
  ``_apply_damage`` for a fixed creature, which decides lethality at once (damage the
  specification's cleanup removes before any check is dropped); at each check python-mtg's
  own derived zone changes are applied (``_check``);
* when the specification begins a step, python-mtg's driver is advanced to it
  (``env._advance_one``, which performs the turn-based actions of each step it leaves); combat
  damage is dealt when the specification deals it, and cleanup's effects end when the
  specification's cleanup begins;
* attackers and blockers are declared through python-mtg's ``_forced`` choice seam;
* the other effects use the driver's verbs (destroy, sacrifice, exile, modify P/T, grant a
  keyword, counters, a regeneration shield, "can't be regenerated").

What python-mtg has no relation for is declared in ``LACKS`` (the feature vocabulary of
``regen_model.conform.features``), so the generator builds no case that needs it. ``resync``
rebuilds the game from the specification's state (used after a known divergence).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata

from regen_model.adapters.python_mtg.board import (
    KEYWORDS,
    STEP_NAMES,
    STEP_ORDER,
    Board,
    build,
    position,
    quiet,
    read,
    step_of,
    write_state,
)
from regen_model.conform.adapter import (
    ActionRejected,
    EngineFailure,
    SpecStep,
    StepUnsupported,
    Unsupported,
)
from regen_model.conform.features import (
    ATTACHMENT_FEATURES,
    COST_FEATURES,
    COUNTED_FEATURES,
    COUNTER_FEATURES,
    DIES_FEATURES,
    LIBRARY_FEATURES,
    MULTI_BLOCK_FEATURES,
    PHASING_FEATURES,
    PREVENTION_FEATURES,
    TARGETING_FEATURES,
)
from regen_model.conform.observe import Observation
from regen_model.model import actions as A
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import CounterKind
from regen_model.model.state import GameState

# Features of the vocabulary (regen_model.conform.features) python-mtg has no way to hold.
LACKS = frozenset(
    {
        "several-shields",  # _regen_shield is a set of ids: one shield per permanent
        "shield-rider",  # a shield carries nothing but its permanent
        "shield-counters",  # no shield counters
        "marked-damage",  # damage is lethal or forgotten as it is dealt
        "damage-keywords",  # an effect's damage has no deathtouch, wither or infect
        "borrowed",  # no setting a controller apart from the owner at the start
        "attachments",  # Auras and Equipment need a cast to attach
        "triggers",  # its triggers fire in its own windows, which the steps here do not open
        "custom-cards",  # cards come from its Oracle corpus only
        "several-blockers",  # damage among several blockers is divided by its own choice
        "legend-duplicates",
        "combat:pre-M10",  # current combat damage rules only
        "combat:M10",
        "action:order-blockers",
        "action:assign-combat-damage",
        "action:change-control",
        "action:leave-and-return",
        "action:cleanup",  # cleanup happens in its cleanup step only
        "spell:Act of Treason",
        "spell:Debt of Loyalty",
        "keyword-removal",  # no effect takes a keyword away
        # 702.4: its combat damage step neither splits for first strike nor deals a double
        # striker's damage twice (its bridge_to_engine.py says so), so double strike is inert.
        "keyword:double-strike",
        "action:change-type",  # no effect ends a permanent's creature status (not mapped)
        "card:Spawning Pool",  # its animation is not mapped to python-mtg
        # a start's "exile it instead if it would die" (614.6) or Pyramids effect (614.1a):
        # python-mtg has neither replacement (exile-if-dies, remove-damage-instead below)
        "start-replacements",
        # Issue 12's mechanics, which python-mtg 0.1.1 does not have (docs/python-mtg-report.md
        # gives the evidence from its sources):
        *PREVENTION_FEATURES,  # 615: its bridge turns only Fog into an effect
        *PHASING_FEATURES,  # 702.26: no code handles phase_out or the phasing keyword
        *MULTI_BLOCK_FEATURES,  # 509.1a: can_block_additional is read by no rule
        *ATTACHMENT_FEATURES,  # equip picks its own creature; no attach effect to a chosen one
        # Issue 13 item 4 (Suture Spirit's targeted ability, Kill Shot, Asphyxiate): not
        # mapped by this adapter's board and action translation.
        *TARGETING_FEATURES,
        *COST_FEATURES,  # Niall Silvain's {T}, Carapace's, Vigilant Martyr's, Dark Privilege's sacrifice: not mapped
        # Issue 13 item 7: neither a "destroyed this way" count nor Disintegrate's target
        # restriction is in its bridge (not mapped, not tested there).
        *COUNTED_FEATURES,
        # Issue 13 item 5: Onulet's "when this creature dies" and Soldevi Steam Beast's
        # "whenever this creature becomes tapped" are not mapped, nor the Basilisks' "destroy
        # that creature at end of combat", nor Go-Shintai of Hidden Cruelty's end-step ability
        # and its reflexive trigger (and its triggers fire in its own windows, see "triggers").
        *DIES_FEATURES,
        # Issue 13 item 2: Thought Scour's mill and Soldevi Sentry's draw rider are not mapped
        # (its shields carry no rider, and the board reads back no library).
        *LIBRARY_FEATURES,
        # Issue 13 item 1: Counterspell's "target spell" (a stack position) is not mapped by
        # this adapter's action translation.
        *COUNTER_FEATURES,
    }
)


_NO_REPLACEMENTS = (
    "start-replacements: a 'this turn' destruction replacement effect (exile it instead, "
    "614.6; Pyramids' remove all damage instead, 614.1a) is on a permanent, and python-mtg has "
    "neither replacement"
)


def _replacements(state: GameState) -> bool:
    """A card has Disintegrate's "exile it instead" or an unused Pyramids effect, which
    python-mtg's relations cannot hold (``LACKS``): a board built without them would run the
    case without the effect."""
    return any(c.exile_if_dies or c.remove_damage for c in state.cards)


def _version() -> str:
    try:
        return metadata.version("python-mtg")
    except metadata.PackageNotFoundError:  # pragma: no cover - checked at import
        return "unknown"


class PythonMtgAdapter:
    """Runs one case at a time on python-mtg (in process; it is fast once its card corpus is
    loaded, about three seconds for the first game)."""

    name = "python-mtg"
    lacks = LACKS

    def __init__(self) -> None:
        self._board: Board | None = None
        self._state: GameState | None = None  # the specification's state (for reading)
        self._hint: tuple[GameState, tuple[A.Action, ...]] | None = None
        self._held: list[A.Action] = []  # casts and activations waiting to resolve
        self._damage: list[A.DealDamage] = []  # effect damage waiting for a check
        self._effects = 0  # effect actions so far (each is its own source in python-mtg)

    @property
    def version(self) -> str:
        return _version()

    # --- the protocol --------------------------------------------------------------------------

    def supports(self, state: GameState, actions: Sequence[A.Action]) -> Unsupported | None:
        self._hint = (state, tuple(actions))
        for template in state.setup.templates:
            if PERMANENT_CARDS.get(template.name) != template:
                return Unsupported(f"{template.name!r} is not a built-in card")
        if state.stack or state.pending:
            return Unsupported("objects on the stack cannot be set up in python-mtg")
        if _replacements(state):
            return Unsupported(_NO_REPLACEMENTS)
        return None

    def start(self, state: GameState) -> None:
        # The framework asks ``supports`` right before ``start``; over JSON lines the two states
        # are rebuilt separately, so the hint is matched by the game's setup.
        hinted = self._hint is not None and self._hint[0].setup == state.setup
        actions = self._hint[1] if hinted and self._hint is not None else ()
        spells = [(a.player, a.name) for a in actions if isinstance(a, A.CastSpell)]
        try:
            self._board = build(state, spells)
        except Exception as exc:
            raise EngineFailure(f"python-mtg could not set up the board: {exc}") from None
        self._state = state
        self._held = []
        self._damage = []
        self._effects = 0

    def apply(self, action: A.Action) -> None:
        raise StepUnsupported("python-mtg is driven step by step (apply_step)")

    def apply_step(self, action: A.Action, spec: SpecStep) -> None:
        try:
            with quiet():
                self._apply(action, spec)
        except (ActionRejected, StepUnsupported, EngineFailure):
            raise
        except Exception as exc:
            raise EngineFailure(f"python-mtg raised {type(exc).__name__}: {exc}") from None
        self._state = spec.state

    def observe(self) -> Observation:
        assert self._state is not None
        return read(self._require(), self._state)

    def resync(self, state: GameState) -> bool:
        """Rebuild python-mtg's relations from the specification's ``state``. Not while
        something waits on the stack (python-mtg has none to put it on) or a combat is under way
        (its driver keeps combat bookkeeping of its own between the declaration steps): the rest
        of such a case is masked."""
        in_combat = state.combat.declared or any(c.in_combat for c in state.cards)
        if state.stack or state.pending or in_combat or self._board is None:
            return False
        if _replacements(state):  # write_state has no row for them: never drop them
            return False
        write_state(self._board, state, position=False)
        self._held, self._damage = [], []
        self._state = state
        return True

    def close(self) -> None:
        self._board = None
        self._state = None

    # --- internals -----------------------------------------------------------------------------

    def _require(self) -> Board:
        if self._board is None:
            raise EngineFailure("start() must be called first")
        return self._board

    def _apply(self, action: A.Action, spec: SpecStep) -> None:
        board = self._require()
        pm = board.state
        if isinstance(action, A.ActivateAbility):
            self._ability_row(action)  # an ability python-mtg did not build is refused now
            self._held.append(action)
        elif isinstance(action, A.CastSpell):
            self._held.append(action)
        elif isinstance(action, A.DealDamage):
            self._damage_players(action)
            if action.cant_regen:  # the rider applies as the damage is dealt, lethal or not
                for share in action.shares:
                    if share.card is not None:
                        pm.setdefault("cant_be_regenerated", set()).add((board.ids[share.card],))
            if any(share.card is not None for share in action.shares):
                self._damage.append(action)
        elif isinstance(action, A.DeclareAttackers):
            self._advance_to("declare_attackers")
            pm["_forced"] = {"attackers": frozenset(board.ids[h] for h in action.attackers)}
            self._advance_one()
        elif isinstance(action, A.DeclareBlockers):
            self._advance_to("declare_blockers")
            pm["_forced"] = {
                "blocks": frozenset((board.ids[b], board.ids[a]) for b, a in action.blocks)
            }
            self._advance_one()
        elif not isinstance(action, A.PassPriority | A.CheckStateBasedActions):
            self._effect(action)
        for token in spec.did:
            kind, _, what = token.partition(":")
            if kind in ("resolved", "fizzled"):
                held = self._held.pop() if self._held else None
                if held is not None and kind == "resolved":
                    self._resolve(held)
            elif kind == "step-began":
                self._begin(what)
            elif kind == "combat-damage":
                self._advance_to("combat_damage")
                self._advance_one()  # python-mtg deals combat damage as it leaves the step
        if (
            spec.has("priority")
            or spec.has("sba-check")
            or isinstance(action, A.CheckStateBasedActions)
        ):
            for dealt in self._damage:
                self._deal(dealt)
            self._damage = []
            self._check()

    def _check(self) -> None:
        """python-mtg's own state-based consequences, at a moment the specification checks:
        the zone changes (and losses) its rules derive from the state now, applied by its
        driver's ``_apply_outputs`` (which otherwise runs once per step, as the step ends)."""
        from mtg import driver

        pm = self._require().state
        out = driver.run(pm, driver.OUTPUTS)
        kept = {"zone_change", "loses_game", "wins_game"}
        out = {k: (v if k in kept else set()) for k, v in out.items()}
        active = next(iter(pm["active_player"]))[0]
        loser = driver._apply_outputs(pm, out, active)
        if loser:
            pm["_loser"] = loser

    def _begin(self, step_name: str) -> None:
        from regen_model.model.enums import Step

        target = STEP_NAMES[Step(step_name)]
        if target == "combat_damage":
            return  # combat damage comes with the "combat-damage" token
        self._advance_to(target, new_turn=step_name == "untap")
        if target == "cleanup":
            from mtg import driver

            driver._end_of_turn(self._require().state)  # 514.2 as cleanup begins
            # Held damage not yet dealt is gone with the marked damage cleanup removes: the
            # specification never checked it, so python-mtg's lethality check never comes.
            self._damage = []

    def _advance_to(self, target: str, *, new_turn: bool = False) -> None:
        """Advance python-mtg's driver until its game is in ``target`` (in the next turn when
        ``new_turn``); a step it already passed is left alone."""
        pm = self._require().state
        turn, _ = position(pm)
        goal = (turn + 1 if new_turn else turn, STEP_ORDER.index(target))
        for _ in range(2 * len(STEP_ORDER) + 2):
            if position(pm) >= goal or pm.get("_loser"):
                return
            self._advance_one()
        raise EngineFailure(f"python-mtg did not reach the {target} step")

    def _advance_one(self) -> None:
        """One step of python-mtg's driver. Its declarations are forced to "none" unless an
        action set them: left alone, its driver would choose attackers and blockers itself."""
        from mtg.engine import env

        pm = self._require().state
        forced = pm.get("_forced") or {}
        if step_of(pm) == "declare_attackers":
            pm["_forced"] = {"attackers": forced.get("attackers", frozenset())}
        elif step_of(pm) == "declare_blockers":
            pm["_forced"] = {"blocks": forced.get("blocks", frozenset())}
        env._advance_one(pm)
        pm["_forced"] = {}

    def _resolve(self, action: A.Action) -> None:
        from mtg import driver

        board = self._require()
        pm = board.state
        names = sorted(p for (p,) in pm["is_player"])
        assert self._state is not None
        assert isinstance(action, A.CastSpell | A.ActivateAbility)
        player = self._state.setup.player_names[action.player]
        if isinstance(action, A.CastSpell):
            ids = board.reserve.get((player, action.name))
            if not ids:
                raise StepUnsupported(f"no copy of {action.name} was stocked for {player}")
            spell = ids.pop(0)
            pm.setdefault("in_hand", set()).add((player, spell))
            target = action.targets[0].card if action.targets else None
            pm["_forced"] = {"target": board.ids[target]} if target is not None else {}
            driver._cast_spell(pm, player, spell, names)
            pm["_forced"] = {}
            return
        assert isinstance(action, A.ActivateAbility)
        a, src, _cost, _taps, eff, amt, tgt = self._ability_row(action)
        pm.setdefault("_ability_effect", {})[a] = (eff, int(amt), tgt, src, player)
        driver._stack_push(pm, a, player)
        driver._resolve_stack(pm, player, names)

    def _ability_row(self, action: A.ActivateAbility) -> tuple[str, str, int, str, str, int, str]:
        """The row python-mtg built from the Oracle text for the ``action.ability``-th activated
        ability of its source (rows in id order, as the card lists them)."""
        board = self._require()
        source = board.ids[action.source]
        rows = sorted(r for r in board.state.get("activated_ability", ()) if r[1] == source)
        if action.ability >= len(rows):
            raise ActionRejected(
                f"python-mtg built no activated ability {action.ability} for {action.source}"
            )
        row: tuple[str, str, int, str, str, int, str] = rows[action.ability]
        return row

    def _deal(self, action: A.DealDamage) -> None:
        from mtg import driver

        board = self._require()
        pm = board.state
        assert self._state is not None
        names = self._state.setup.player_names
        owner = names[self._state.active]
        for share in action.shares:
            if share.amount <= 0 or share.card is None:
                continue
            tid = board.ids[share.card]
            driver._apply_damage(pm, action.source, share.amount, f"creature_fixed:{tid}", owner)

    def _damage_players(self, action: A.DealDamage) -> None:
        """Damage to a player is life lost at once in python-mtg as in the rules."""
        from mtg import driver

        pm = self._require().state
        assert self._state is not None
        for share in action.shares:
            if share.player is not None and share.amount > 0:
                driver._adjust_life(pm, self._state.setup.player_names[share.player], -share.amount)

    def _effect(self, action: A.Action) -> None:
        from mtg import driver

        board = self._require()
        pm = board.state
        assert self._state is not None
        me = self._state.setup.player_names[self._state.active]
        self._effects += 1
        label = f"effect{self._effects}"  # python-mtg keys a continuous effect by its source

        def verb(name: str, payload: str, handle: str) -> None:
            out = driver.run(pm, ["cant_be_destroyed", "controls"])
            indestructible = {c for (c,) in out["cant_be_destroyed"]}
            owner_of = {c: p for (p, c) in out["controls"]}
            driver._apply_target_verb(
                pm,
                label,
                "spell",
                name,
                payload,
                board.ids[handle],
                me,
                indestructible,
                owner_of,
            )

        if isinstance(action, A.CreateShield):
            pm.setdefault("_regen_shield", set()).add((board.ids[action.target],))
        elif isinstance(action, A.Destroy):
            for handle in action.targets:
                if action.cant_be_regenerated:
                    pm.setdefault("cant_be_regenerated", set()).add((board.ids[handle],))
                verb("destroy", "", handle)
        elif isinstance(action, A.Sacrifice):
            driver._sacrifice(pm, board.ids[action.target])
        elif isinstance(action, A.Exile):
            tid = board.ids[action.target]
            pm["on_battlefield"].discard((tid,))
            pm.setdefault("exile", set()).add((tid,))
        elif isinstance(action, A.MakeUnregenerable):
            pm.setdefault("cant_be_regenerated", set()).add((board.ids[action.target],))
        elif isinstance(action, A.ModifyPowerToughness):
            verb("modify_pt", f"{action.power}/{action.toughness}", action.target)
        elif isinstance(action, A.GrantKeyword):
            if action.remove:
                raise StepUnsupported("python-mtg has no effect removing a keyword")
            verb("grant", KEYWORDS[action.keyword], action.target)
        elif isinstance(action, A.AddCounters):
            if action.counter is CounterKind.SHIELD:
                raise StepUnsupported("python-mtg has no shield counters")
            kind = "p1p1" if action.counter is CounterKind.PLUS else "m1m1"
            driver._bump_counter(pm, board.ids[action.target], kind, action.amount)
        else:
            raise StepUnsupported(f"python-mtg has no {action.kind} effect")
        if step_of(pm) not in STEP_ORDER:  # pragma: no cover - python-mtg's own steps only
            raise EngineFailure(f"python-mtg is in an unknown step {step_of(pm)!r}")
