"""Turning one of our actions into phase.rs actions.

Game actions (pass, cast, activate, combat declarations, damage division) go through phase.rs's
own machinery: that is what the cross-check tests. Mana is paid by adding exactly the cost to
the player's pool right before (phase.rs spends pool mana before tapping lands), since our model
does not model costs.

Our *effect* actions ("an effect now does this") do not check state-based actions: that is what
lets a scenario state "3 damage, then a shield, then the check". phase.rs checks them whenever a
player would get priority, so each effect uses the most direct phase.rs route that does not:

* state edits and ``Debug`` actions where they say exactly the same thing (damage marked,
  -1/-1 counters from wither, a regeneration shield, counters, sacrifice, exile, the SBA check);
* otherwise a cost-{0} harness spell, cast and resolved at once. phase.rs then checks
  state-based actions before anyone gets priority; if that check did anything, the step had no
  faithful equivalent and ``Unexpressible`` is raised. Priority is put back as it was, since an
  effect action does not move it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from regen_model.adapters.phase.board import (
    MINUS,
    PLUS,
    SHIELD,
    library_on_top,
    priority_of,
    set_priority,
    shield_definition,
)
from regen_model.adapters.phase.carddata import FILLER, LIBRARY_CARD, PhaseCard
from regen_model.adapters.phase.errors import AdapterError, Rejected, Unexpressible
from regen_model.adapters.phase.game import Json, PhaseGame
from regen_model.adapters.phase.read import DAMAGE_KINDS
from regen_model.adapters.phase.support import effect_card, spell_card
from regen_model.model import actions as A
from regen_model.model.cards import AbilityKind
from regen_model.model.enums import CounterKind, Keyword, ReplacementKind
from regen_model.model.state import GameState

MAX_PROMPTS = 64  # answers to automatic prompts after one action; more means a loop
_COLOURS = {"White", "Blue", "Black", "Red", "Green"}
_COUNTER = {CounterKind.PLUS: PLUS, CounterKind.MINUS: MINUS, CounterKind.SHIELD: SHIELD}
# Events phase.rs emits after a spell resolved that are not state-based actions.
_QUIET = {"PriorityPassed", "DebugActionUsed", "ManaExpended", "PhaseChanged"}


class NeedCard(Exception):
    """No copy of ``card`` owned by ``seat`` is available to cast: the board must be rebuilt
    with one more copy in the stock."""

    def __init__(self, seat: int, card: PhaseCard) -> None:
        super().__init__(f"no {card.name} for player {seat}")
        self.seat = seat
        self.card = card


class Translator:
    """Applies our actions to one phase.rs game.

    Replacement choices the action does not answer ("unasked" ones: our rules saw no choice to
    make, phase.rs asks anyway) are answered from ``forced`` (in order; the first candidate when
    it runs out) and recorded in ``asked``, so that the adapter can replay the action with every
    other answer and find out whether the answer matters (see ``PhaseEngineAdapter.apply``).
    """

    def __init__(self, pg: PhaseGame, ids: dict[str, int], start: GameState) -> None:
        self.pg = pg
        self.ids = ids
        self.setup = start.setup
        self.defending = {0: 1, 1: 0}
        self.handles = {oid: h for h, oid in ids.items()}
        # The spell cards our casts put on the stack, by phase.rs object id: the model's name
        # of each, which is how its graveyard shows them (608.2n; read.read_graveyards)
        self.spells: dict[int, str] = {}
        self.forced: list[int] = []
        self.asked: list[list[str]] = []
        # The answer to a "may draw" the action resolves (``PassPriority.decline``, 608.2d)
        self.decline = False
        # phase.rs stack entries by id: every one seen so far, and those that were inert
        # Basilisk triggers when they arrived (``_note_stack``), which the model drops
        self.stack_seen: set[int] = set()
        self.inert_on_arrival: set[int] = set()
        # phase.rs stack entries that stand for the model's waiting triggers (603.3): triggered
        # abilities an effect action made, which phase.rs put on the stack with the effect and
        # the model puts there only the next time a player would receive priority
        # (``_before_waiting``, ``_after_waiting``), left out of the stack's size until then
        self.waiting: list[int] = []

    def copy_onto(self, pg: PhaseGame) -> Translator:
        """A translator in this one's state (every container of it copied, so neither sees
        the other's later changes) driving ``pg``: with ``pg`` restored from a snapshot of
        this one's game taken at the same moment, the pair goes on as this pair would."""
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if name != "pg" and isinstance(value, list | set | dict):
                setattr(twin, name, copy.deepcopy(value))
        twin.pg = pg
        return twin

    def apply(self, action: A.Action) -> frozenset[str]:
        """Perform ``action``; returns the event kinds phase.rs could not report for it."""
        handler = getattr(self, "_" + type(action).__name__, None)
        if handler is None:
            raise AdapterError(f"{action.kind} has no phase.rs equivalent")
        mark = len(self.pg.events)
        before = {int(e["id"]) for e in self.pg.state()["stack"]}
        if self.waiting:
            self._before_waiting(action)
        self.decline = isinstance(action, A.PassPriority) and action.decline
        try:
            result: frozenset[str] = handler(action) or frozenset()
            self._settle(action.choices)
            self._resolve_inert_eoc_triggers()  # the triggers are ordered by now (_settle)
            st = self.pg.state()
            self._note_stack(st)
            self._after_waiting(action, st, before)
        finally:
            self.decline = False
        self._follow_draws(mark)
        return result

    # --- triggers an effect leaves waiting (603.3) -----------------------------------------------

    def _before_waiting(self, action: A.Action) -> None:
        """Refuse an action after which the model would not put its waiting triggers on the
        stack where phase.rs has them (``Unexpressible``).

        An effect action stands for an effect with no priority after it, so a trigger it makes
        waits in the model until a player would next receive priority (117.5, 603.3); phase.rs
        put it on the stack with the effect (the harness spell's resolution, a ``Debug``
        action). The two agree again as soon as that player receives priority, with nothing
        put on the stack in between: after a pass that hands priority on (the model then puts
        the trigger on the stack, the same single object on top), after the state-based-action
        check, and after another effect (the trigger waits on in the model). A pass that ends
        the round of passes would, in the model, resolve the object under the trigger or end
        the step with the trigger still waiting, where phase.rs resolves the trigger; a spell
        cast or an ability activated goes under the trigger in the model (603.3: the trigger
        is put on the stack as the caster receives priority, 117.3c), above it in phase.rs; a
        declaration is made with the trigger on phase.rs's stack."""
        if isinstance(action, A.EFFECT_ACTIONS):
            return
        if isinstance(action, A.PassPriority):
            _, passes = priority_of(self.pg.state())
            if {*passes, action.player} != {0, 1}:
                return
            raise Unexpressible(
                "a pass that ends the round of passes while a trigger an effect made waits "
                "(603.3): the model resolves what is under it or ends the step, and puts the "
                "trigger on the stack afterwards; phase.rs has had it on the stack since the "
                "effect and resolves it first"
            )
        raise Unexpressible(
            f"{action.kind} while a trigger an effect made waits (603.3): the model puts the "
            "trigger on the stack only as a player next receives priority (above a spell or "
            "ability just put there, 117.3c); phase.rs has had it on the stack since the effect"
        )

    def _after_waiting(self, action: A.Action, st: Json, before: set[int]) -> None:
        """Keep ``waiting`` up to date after ``action``: the triggered abilities an effect
        action (not the state-based-action check, 117.5) put on phase.rs's stack join it; any
        other action (those ``_before_waiting`` lets through) gave a player priority, so the
        model put its waiting triggers on the stack too, with those that triggered since, the
        active player's first, each player's in the order they triggered (603.3b,
        ``engine.sba._triggers_to_stack``). phase.rs put the waiting ones there earlier, so they
        lie below the later ones: the same order unless a later trigger is the active
        player's and a waiting one the other player's, which the model would put below it
        (``Unexpressible``)."""
        entries = st.get("stack") or ()
        new = [
            int(e["id"])
            for e in entries
            if int(e["id"]) not in before and e["kind"]["type"] == "TriggeredAbility"
        ]
        if isinstance(action, A.EFFECT_ACTIONS) and not isinstance(
            action, A.CheckStateBasedActions
        ):
            self.waiting += new
            return
        if not self.waiting:
            return
        placed = set(self.waiting) | set(new)
        owners = [int(e["controller"]) for e in entries if int(e["id"]) in placed]
        self.waiting = []
        active = int(st["active_player"])
        keys = [0 if seat == active else 1 for seat in owners]
        if keys != sorted(keys):
            raise Unexpressible(
                "the model puts the triggers an effect left waiting on the stack with the later "
                "ones, the active player's first (603.3b); phase.rs put a waiting trigger of the "
                "other player on the stack before a later one of the active player's"
            )

    def waiting_on_stack(self, st: Json) -> int:
        """How many objects on phase.rs's stack are triggers the model holds waiting
        (``waiting``), left out of the stack's size (``read.read_game``) until a player
        receives priority. A trigger phase.rs made that the model did not make shows then."""
        ids = set(self.waiting)
        return sum(1 for entry in st.get("stack") or () if int(entry["id"]) in ids)

    def oid(self, handle: str) -> int:
        try:
            return self.ids[handle]
        except KeyError:
            raise AdapterError(f"no card {handle!r} in this scenario") from None

    # --- game actions ----------------------------------------------------------------------------

    def _PassPriority(self, a: A.PassPriority) -> None:
        self._expect_priority(a.player, "pass")
        self.pg.act(a.player, {"type": "PassPriority"})
        self._when_you_do(a)

    def _when_you_do(self, a: A.PassPriority) -> None:
        """The pass resolved Go-Shintai of Hidden Cruelty's "you may pay {1}. When you do, ..."
        (603.12): phase.rs asks its controller (``OptionalEffectChoice``), and the model's
        answer is the pass's ``decline``. Paying gets the mana from the adapter (the model pays
        none; mana costs are the adapter's to pay); phase.rs then makes the reflexive trigger
        and asks for its target as it puts it on the stack (``TriggerTargetSelection``,
        603.3d), answered with the pass's ``target``. With no legal target phase.rs asks
        nothing (603.3d: the trigger is removed). Another optional effect is left alone."""
        waiting = self.pg.waiting()
        if waiting["type"] != "OptionalEffectChoice":
            return
        data = waiting["data"]
        handle = self.handles.get(_int(data.get("source_id", -1)))
        if (
            handle is None
            or not self.setup.templates[self.setup.slot_of(handle)].end_step_reflexive
        ):
            return
        seat = data["player"]
        if a.decline:
            self.pg.apply(seat, {"type": "DecideOptionalEffect", "data": {"accept": False}})
            return
        self._add_mana(seat, {"type": "Cost", "generic": 1, "shards": []})
        self.pg.apply(seat, {"type": "DecideOptionalEffect", "data": {"accept": True}})
        waiting = self.pg.waiting()
        if waiting["type"] != "TriggerTargetSelection":
            return
        legal = waiting["data"]["selection"]["current_legal_targets"]
        if a.target is None:
            raise Rejected(f"phase.rs asks for the reflexive trigger's target among {legal}")
        ref = {"Object": self.oid(a.target)}
        if ref not in legal:
            raise Rejected(f"{a.target} is not among phase.rs's legal targets {legal}")
        self.pg.apply(waiting["data"]["player"], {"type": "ChooseTarget", "data": {"target": ref}})

    def _resolve_inert_eoc_triggers(self) -> None:
        """Resolve the Basilisks' delayed "destroy that creature at end of combat" triggers
        whose creature had left the battlefield when they triggered. In the rules such a trigger
        still goes on the stack as the end of combat step begins and does nothing (603.7c,
        400.7); the model drops it with the old object, so nothing goes on the stack
        (docs/rules-decisions.md). Passing lets phase.rs resolve it, so that a trigger that does
        something after all still shows; only while such a trigger is on top of the stack
        (``_settle`` orders a player's inert triggers above their others, as 603.3b lets the
        player do). A trigger whose creature leaves once it is on the stack stays in the model
        too (it resolves doing nothing, 608.2b), so it is not passed through."""
        for _ in range(MAX_PROMPTS):
            st = self.pg.state()
            self._note_stack(st)
            if not st["stack"] or self.pg.waiting()["type"] != "Priority":
                return
            top = st["stack"][-1]  # phase.rs's stack lists the top last
            if int(top["id"]) not in self.inert_on_arrival:
                return
            self.pg.apply(self.pg.game.priority_player(), {"type": "PassPriority"})
        raise AdapterError("the end-of-combat triggers did not resolve")

    def _note_stack(self, st: Json) -> None:
        """Record the stack entries phase.rs added since the last look, and which of them are
        Basilisk triggers whose creature was already gone as they arrived (``_inert_eoc``):
        those, and only those, the model never put on its stack. Entries arrive only as a
        player is about to receive priority (117.2, 603.3), after which nothing else happens
        within the same action, so a look after each action tells the two kinds apart."""
        for entry in st.get("stack") or ():
            ident = int(entry["id"])
            if ident in self.stack_seen:
                continue
            self.stack_seen.add(ident)
            if self._inert_eoc(st, entry["kind"].get("data") or {}, entry["kind"]["type"]):
                self.inert_on_arrival.add(ident)

    def inert_on_stack(self, st: Json) -> int:
        """How many objects on phase.rs's stack are Basilisk triggers that were inert as they
        arrived (``_note_stack``), which the model drops: one the adapter could not resolve
        yet, since it lies under a live one (the active player's inert trigger under the other
        player's live one, 603.3b), is left out of the stack's size until it comes on top and
        is passed through (``read.read_game``)."""
        return sum(
            1 for entry in st.get("stack") or () if int(entry["id"]) in self.inert_on_arrival
        )

    def _inert_eoc(self, st: Json, data: Json, kind: str = "TriggeredAbility") -> bool:
        """A Basilisk's delayed end-of-combat trigger (on the stack, or waiting to be ordered)
        whose creature is gone."""
        handle = self.handles.get(_int(data.get("source_id", -1)))
        if kind != "TriggeredAbility" or handle is None:
            return False
        if not self.setup.templates[self.setup.slot_of(handle)].destroys_combatants:
            return False
        event = data.get("trigger_event")
        if event is not None and (event.get("data") or {}).get("phase") != "EndCombat":
            return False
        return _targets_gone(st, data.get("ability") or {})

    def _CastSpell(self, a: A.CastSpell) -> None:
        self._expect_priority(a.player, f"cast {a.name}")
        oid = self._cast(a.player, spell_card(a), a.targets, player_action=True)
        self.spells[oid] = a.name

    def _ActivateAbility(self, a: A.ActivateAbility) -> None:
        self._expect_priority(a.player, f"activate {a.source}")
        oid = self.oid(a.source)
        ours = self.setup.templates[self.setup.slot_of(a.source)].abilities
        if not 0 <= a.ability < len(ours):
            raise AdapterError(f"{a.source} has no ability {a.ability}")
        obj = self.pg.obj(oid)
        index = _ability_index(obj["abilities"], ours[a.ability].kind)
        if index is None:
            raise AdapterError(f"phase.rs's {obj['name']} has no {ours[a.ability].kind} ability")
        # The mana part of the cost is the adapter's to pay (the model pays no mana); a {T}
        # or "Sacrifice this" part phase.rs pays itself as it activates (601.2h, 602.2b)
        self._add_mana(a.player, _mana_cost(obj["abilities"][index].get("cost") or {}))
        self.pg.act(
            a.player,
            {"type": "ActivateAbility", "data": {"source_id": oid, "ability_index": index}},
        )
        if a.target is not None:  # equip's target creature (702.6a), or "target creature"
            # (602.2b, 601.2c): chosen before the cost is paid (601.2h)
            self._choose_targets(
                a.player,
                oid,
                [{"Object": self.oid(a.target)}],
                "ActivatedAbility",
                before_cost=True,
            )
        self._pay_sacrifice(a)
        if a.target is not None:
            self._check_targets(oid, [{"Object": self.oid(a.target)}], "ActivatedAbility")

    def _pay_sacrifice(self, a: A.ActivateAbility) -> None:
        """Answer phase.rs's question which creature is sacrificed to pay a "Sacrifice a
        creature" cost (Dark Privilege; 601.2h, 701.21a) with the model's choice
        (``ActivateAbility.sacrifice``). phase.rs offers only what its controller may
        sacrifice: a choice it does not offer is its refusal of the action (``Rejected``)."""
        waiting = self.pg.waiting()
        if waiting["type"] != "PayCost":
            if a.sacrifice is not None:
                raise Rejected(
                    f"phase.rs asks for no creature to sacrifice for {a.source}'s ability "
                    f"(it waits for {waiting['type']})"
                )
            return
        data = waiting["data"]
        if (data.get("kind") or {}).get("type") != "Sacrifice":
            raise AdapterError(f"phase.rs asks an unmapped cost payment: {data.get('kind')}")
        offered = [int(x) for x in data.get("choices") or ()]
        if a.sacrifice is None:
            raise Rejected(f"phase.rs asks for a sacrifice among {offered}, the model has none")
        chosen = self.oid(a.sacrifice)
        if chosen not in offered:
            raise Rejected(
                f"phase.rs does not let {a.sacrifice} be sacrificed for {a.source}'s ability "
                f"(it offers {offered})"
            )
        self.pg.act(data["player"], {"type": "SelectCards", "data": {"cards": [chosen]}})

    def _DeclareAttackers(self, a: A.DeclareAttackers) -> None:
        self._expect_prompt("DeclareAttackers", a.player)
        target = {"type": "Player", "data": self.defending[a.player]}
        attacks = [[self.oid(h), target] for h in a.attackers]
        self.pg.act(a.player, {"type": "DeclareAttackers", "data": {"attacks": attacks}})

    def _DeclareBlockers(self, a: A.DeclareBlockers) -> None:
        self._expect_prompt("DeclareBlockers", a.player)
        pairs = [[self.oid(b), self.oid(t)] for b, t in a.blocks]
        self.pg.act(a.player, {"type": "DeclareBlockers", "data": {"assignments": pairs}})
        self._resolve_block_triggers(a.choices)

    def _resolve_block_triggers(self, choices: Sequence[A.ReplacementChoice]) -> None:
        """Resolve the Basilisks' block triggers phase.rs put on the stack (Thicket Basilisk,
        Cockatrice: "whenever this creature blocks or becomes blocked by a non-Wall creature,
        destroy that creature at end of combat", 509.1i). The model lets such a trigger resolve
        at once, as blockers are declared (trigger.eoc-destroy, docs/rules-decisions.md): what
        it makes, the delayed trigger (603.7), then exists in both engines. The players pass
        only while every object on the stack is such a trigger."""
        templates = self.setup.templates
        for _ in range(MAX_PROMPTS):
            self._settle(choices)  # the order of one player's triggers (603.3b)
            stack = self.pg.state()["stack"]
            if not stack or self.pg.waiting()["type"] != "Priority":
                return
            for entry in stack:
                handle = self.handles.get(_stack_source(entry) or -1)
                if entry["kind"]["type"] != "TriggeredAbility" or handle is None:
                    return
                if not templates[self.setup.slot_of(handle)].destroys_combatants:
                    return
            holder = self.pg.game.priority_player()
            self.pg.apply(holder, {"type": "PassPriority"})
        raise AdapterError("the Basilisk triggers did not resolve")

    def _AssignCombatDamage(self, a: A.AssignCombatDamage) -> None:
        self._expect_prompt("AssignCombatDamage", a.player)
        divisions = {self.oid(d.attacker): d.shares for d in a.divisions}
        for _ in range(MAX_PROMPTS):
            waiting = self.pg.waiting()
            if waiting["type"] != "AssignCombatDamage":
                return
            data = waiting["data"]
            shares = divisions.pop(int(data["attacker_id"]), None)
            if shares is None:
                # Our engine asks only when several divisions are legal; phase.rs also asks for
                # every blocked trampler and double block. Its own suggestion is the forced one.
                self.pg.apply(data["player"], self.pg.legal()[0])
                continue
            to_player = sum(n for r, n in shares if r == "player")
            assignments = [[self.oid(r), n] for r, n in shares if r != "player"]
            self.pg.act(
                data["player"],
                {
                    "type": "AssignCombatDamage",
                    "data": {
                        "mode": "Normal",
                        "assignments": assignments,
                        "trample_damage": to_player,
                        "controller_damage": 0,
                    },
                },
            )
        raise AdapterError("phase.rs kept asking for combat damage assignments")

    # --- effect actions: direct --------------------------------------------------------------------

    def _CreateShield(self, a: A.CreateShield) -> None:
        oid = self._on_battlefield(a.target)

        def add(st: Json) -> None:
            obj = st["objects"][str(oid)]
            obj["replacement_definitions"] = [*obj["replacement_definitions"], shield_definition()]

        self.pg.edit(add)

    def _DealDamage(self, a: A.DealDamage) -> frozenset[str]:
        keywords = set(a.keywords)
        gainer = a.controller  # who gains life from lifelink: the source's controller
        if a.source in self.ids:
            source = self.pg.obj(self.ids[a.source])
            if source["zone"] == "Battlefield":
                keywords |= {k for k, v in _PHASE_KEYWORDS.items() if v in source["keywords"]}
                if gainer is None:
                    gainer = int(source["controller"])
            elif gainer is None:
                gainer = self.setup.owners[self.setup.slot_of(a.source)]
        as_counters = bool(keywords & {Keyword.WITHER, Keyword.INFECT})
        deathtouch = Keyword.DEATHTOUCH in keywords
        targets = [(self._on_battlefield(s.card), s.amount) for s in a.shares if s.card is not None]
        for oid, _ in targets:
            obj = self.pg.obj(oid)
            if obj["counters"].get(SHIELD):
                raise Unexpressible("direct damage to a permanent with a shield counter (122.1c)")
            if any(_is_prevention(r) for r in obj["replacement_definitions"]):
                raise Unexpressible("direct damage to a permanent with a prevention effect (615)")

        def mark(st: Json) -> None:
            for oid, amount in targets:
                obj = st["objects"][str(oid)]
                if amount <= 0:
                    continue
                if as_counters:
                    obj["counters"][MINUS] = obj["counters"].get(MINUS, 0) + amount
                else:
                    obj["damage_marked"] += amount
                if deathtouch:
                    obj["dealt_deathtouch_damage"] = True
            for share in a.shares:
                if share.player is None or share.amount <= 0:
                    continue
                player = st["players"][share.player]
                if Keyword.INFECT in keywords:
                    player["poison_counters"] += share.amount
                else:
                    player["life"] -= share.amount
            if Keyword.LIFELINK in keywords:
                # 702.15b: part of the damage event, also for damage dealt as counters; the
                # edit skips phase.rs's damage code, so its lifelink is applied here too.
                dealt = sum(s.amount for s in a.shares if s.amount > 0)
                st["players"][0 if gainer is None else gainer]["life"] += dealt

        self.pg.edit(mark)
        return DAMAGE_KINDS  # marked by an edit: phase.rs emits no damage event

    def _Sacrifice(self, a: A.Sacrifice) -> None:
        oid = self._on_battlefield(a.target)
        mark = len(self.pg.events)
        self.pg.debug("Sacrifice", object_id=oid)
        self._require_only(mark, oid, a.kind)

    def _Exile(self, a: A.Exile) -> None:
        oid = self._on_battlefield(a.target)
        mark = len(self.pg.events)
        self.pg.debug("MoveToZone", object_id=oid, to_zone="Exile")
        self._require_only(mark, oid, a.kind)

    def _Attach(self, a: A.Attach) -> None:
        """An effect attaches an Aura or Equipment (701.3a): phase.rs's ``Debug Attach``,
        which moves it from any permanent it was attached to. What the move makes illegal
        (704.5m, 704.5n) waits for the next check, as in our effect."""
        oid = self._on_battlefield(a.attachment)
        host = self._on_battlefield(a.target)
        target = self.pg.obj(host)
        if host == oid or "Creature" not in target["card_types"]["core_types"]:
            # The rules make such an attach do nothing (701.3b); Debug Attach is no rules
            # effect and would attach it anyway.
            raise Unexpressible(
                "an attach effect the rules make do nothing (itself, or not a creature): "
                "phase.rs's Debug Attach would attach it regardless"
            )
        if _attached_to(self.pg.obj(oid)) == host:
            return  # already attached to it: nothing happens (701.3b), in phase.rs too
        mark = len(self.pg.events)
        self.pg.debug("Attach", object_id=oid, target={"type": "Object", "data": host})
        self._require_only(mark, oid, a.kind)

    def _LeaveAndReturn(self, a: A.LeaveAndReturn) -> None:
        oid = self._on_battlefield(a.target)
        mark = len(self.pg.events)
        self.pg.debug("MoveToZone", object_id=oid, to_zone="Exile")
        self.pg.debug("MoveToZone", object_id=oid, to_zone="Battlefield")
        owner = self.setup.owners[self.setup.slot_of(a.target)]
        if a.controller is not None and a.controller != owner:
            self.pg.debug("SetController", object_id=oid, controller=a.controller)
        self.pg.debug("SetSummoningSickness", object_id=oid, sick=True)  # 302.6
        self._require_only(mark, oid, a.kind)

    def _AddCounters(self, a: A.AddCounters) -> None:
        oid = self._on_battlefield(a.target)
        mark = len(self.pg.events)
        self.pg.debug(
            "ModifyCounters", object_id=oid, counter_type=_COUNTER[a.counter], delta=a.amount
        )
        self._require_only(mark, oid, a.kind)
        if self.pg.obj(oid)["zone"] != "Battlefield":
            raise Unexpressible(
                "phase.rs put the permanent into the graveyard right after the add-counters "
                "effect; the model leaves that to the next state-based-action check"
            )

    def _require_only(self, mark: int, oid: int, kind: str) -> None:
        """A ``Debug`` action standing for an effect must touch nothing but its permanent.

        phase.rs moves a leaving permanent's Auras to the graveyard along with it; the rules do
        that by a state-based action (704.5m), which our effect actions leave to the next check.
        In a real game the two cannot be told apart (the check comes before anyone gets
        priority), but a scenario that looks in between can only be skipped.
        """
        loud = sorted(
            {
                str(e.get("type"))
                for e in self.pg.events[mark:]
                if e.get("type") not in _QUIET and _subjects(e) - {oid}
            }
        )
        if loud:
            raise Unexpressible(
                f"phase.rs also did {', '.join(loud)} to other permanents with the {kind} "
                "effect; the model leaves that to the next state-based-action check"
            )

    def _CheckStateBasedActions(self, a: A.CheckStateBasedActions) -> None:
        self.pg.debug("RunStateBasedActions")

    # --- effect actions: harness spells ------------------------------------------------------------

    def _Destroy(self, a: A.Destroy) -> None:
        self._resolve_effect(a, a.targets[0], None)

    def _ModifyPowerToughness(self, a: A.ModifyPowerToughness) -> None:
        self._resolve_effect(a, a.target, None)

    def _MakeUnregenerable(self, a: A.MakeUnregenerable) -> None:
        self._resolve_effect(a, a.target, None)

    def _GrantKeyword(self, a: A.GrantKeyword) -> None:
        self._resolve_effect(a, a.target, None)

    def _ChangeControl(self, a: A.ChangeControl) -> None:
        self._resolve_effect(a, a.target, a.player)

    def _ChangeType(self, a: A.ChangeType) -> None:
        """A type change until end of turn (613.1d), by a harness spell phase.rs parses into its
        own layer-4 effect (``carddata.type_change_card``). Removing a permanent that stops
        being a creature from combat (506.4) is part of the effect, so events about the target
        are allowed after the spell."""
        self._resolve_effect(a, a.target, None)

    def _resolve_effect(self, a: A.Action, target: str, caster: int | None) -> None:
        card = effect_card(a, self.setup)
        assert card is not None
        oid = self._on_battlefield(target)
        if not self.pg.obj(oid)["card_types"]["core_types"] and not isinstance(a, A.ChangeType):
            # A permanent with no card type left (a Grizzly Bears that isn't a creature) is
            # still a permanent (110.4c), but phase.rs's "target permanent" finds no legal
            # target then; the type-change spells say "target card on the battlefield".
            raise Unexpressible(
                f"phase.rs's 'target permanent' refuses a permanent with no card type (110.4c), "
                f"so no harness spell can stand for the {a.kind} effect"
            )
        waiting = self.pg.waiting()
        if waiting["type"] != "Priority":
            raise Unexpressible(f"phase.rs is waiting for {waiting['type']}: no spell can be cast")
        pending = self._pending_sba()
        if pending:
            raise Unexpressible(
                f"a state-based action is pending ({', '.join(pending)}); phase.rs would perform "
                f"it right after the spell that stands for the {a.kind} effect"
            )
        # What the effect itself may move, destroy or regenerate: only a destroyed target and
        # the Auras and Equipment that umbra armor or the zone change concern.
        allowed = {oid, *(_attached(self.pg.obj(oid)))} if isinstance(a, A.Destroy) else set()
        if isinstance(a, A.ChangeType):
            allowed = {oid}
        saved = priority_of(self.pg.state())
        seat = saved[0] if caster is None else caster
        if seat != saved[0]:
            self.pg.edit(lambda st: set_priority(st, seat, []))
        mark = len(self.pg.events)
        spell = self._cast(seat, card, (A.TargetChoice(card=target),))
        for _ in range(MAX_PROMPTS):
            self._settle(a.choices)
            # until the spell has resolved: the triggers its effect made, which phase.rs puts
            # on the stack right after it, are left there (``waiting``)
            if not any(int(e["id"]) == spell for e in self.pg.state()["stack"]):
                break
            self.pg.apply(self.pg.game.priority_player(), {"type": "PassPriority"})
        else:
            raise AdapterError(f"{card.name} did not resolve")
        if isinstance(a, A.Destroy) and self.pg.obj(oid)["zone"] != "Battlefield":
            # The target is gone: its Auras fall off by a state-based action (704.5m), which
            # our effect leaves to the next check. Only umbra armor (the target stays) makes
            # an Aura's move part of the effect.
            allowed = {oid}
        _require_quiet(self.pg.events[mark:], spell, allowed, a.kind)
        self.pg.edit(lambda st: set_priority(st, *saved))

    def _pending_sba(self) -> list[str]:
        """What phase.rs's state-based-action check would do now, tried on a scratch copy."""
        scratch = self.pg.engine.load_game(self.pg.game.state())
        result = scratch.apply(0, {"type": "Debug", "data": {"type": "RunStateBasedActions"}})
        found = [str(e.get("type")) for e in result.events if e.get("type") not in _QUIET]
        if scratch.waiting_for().get("type") == "ReplacementChoice":
            found.append("a replacement choice")
        return found

    # --- shared steps ------------------------------------------------------------------------------

    def _cast(
        self,
        seat: int,
        card: PhaseCard,
        targets: Sequence[A.TargetChoice],
        *,
        player_action: bool = False,
    ) -> int:
        """Cast ``card`` as ``seat`` with ``targets``; returns the spell's object id.

        ``player_action``: the cast is one of our actions (a refusal is a divergence), not a
        harness spell standing for an effect (a refusal is the adapter's failure).
        """
        oid = self._take(seat, card)
        obj = self.pg.obj(oid)
        self._add_mana(seat, obj.get("mana_cost"))
        send = self.pg.act if player_action else self.pg.apply
        send(
            seat,
            {
                "type": "CastSpell",
                "data": {"object_id": oid, "card_id": obj["card_id"], "targets": []},
            },
        )
        refs = [self._target_ref(t) for t in targets]
        self._choose_targets(seat, oid, refs, "Spell", player_action=player_action)
        return oid

    def _target_ref(self, target: A.TargetChoice) -> Json:
        """phase.rs's reference to one of our targets: a player, a card by its object, or a
        spell on the stack (Counterspell's "target spell", 115.1) by the object id of the
        spell at the model's stack position (0 the bottom; phase.rs lists the stack bottom
        first). The position counts the model's objects only: phase.rs's entries the model
        does not have (inert Basilisk triggers, triggers the model holds waiting) are left
        out, as the stack's size leaves them out (``read.read_game``)."""
        if target.player is not None:
            return {"Player": target.player}
        if target.spell is None:
            return {"Object": self.oid(target.card or "")}
        left_out = self.inert_on_arrival | set(self.waiting)
        entries = [e for e in self.pg.state()["stack"] if int(e["id"]) not in left_out]
        if not 0 <= target.spell < len(entries):
            raise Rejected(
                f"phase.rs's stack holds {len(entries)} objects: no spell at position "
                f"{target.spell} to target"
            )
        entry = entries[target.spell]
        if entry["kind"]["type"] != "Spell":
            raise Rejected(
                f"phase.rs's stack holds a {entry['kind']['type']} at position {target.spell}, "
                "not a spell to target"
            )
        return {"Object": int(entry["id"])}

    def _choose_targets(
        self,
        seat: int,
        oid: int,
        refs: list[Json],
        kind: str,
        *,
        player_action: bool = True,
        before_cost: bool = False,
    ) -> None:
        """Answer phase.rs's target prompts for the spell or ability of ``oid`` with ``refs``
        and check what is on the stack: phase.rs picks a lone legal target itself.
        ``before_cost``: a cost is still to be paid (a sacrifice phase.rs asks for), so the
        ability is not on the stack yet and the caller checks it after (``_check_targets``)."""
        send = self.pg.act if player_action else self.pg.apply
        name = self.pg.obj(oid)["name"]
        pending = list(refs)
        while self.pg.waiting()["type"] == "TargetSelection":
            if not pending:
                raise AdapterError(f"phase.rs wants more targets for {name}")
            send(seat, {"type": "ChooseTarget", "data": {"target": pending.pop(0)}})
        if not before_cost:
            self._check_targets(oid, refs, kind, player_action=player_action)

    def _check_targets(
        self, oid: int, refs: list[Json], kind: str, *, player_action: bool = True
    ) -> None:
        """The spell or ability of ``oid`` is on the stack with the targets ``refs``."""
        name = self.pg.obj(oid)["name"]
        chosen = [
            entry["kind"]["data"]["ability"]["targets"]
            for entry in self.pg.state()["stack"]
            if _stack_source(entry) == oid and entry["kind"]["type"] == kind
        ]
        if not chosen:
            raise AdapterError(f"{name}: no {kind} of it is on the stack")
        if chosen[-1] != refs:
            # phase.rs picks a lone legal target itself: ours is not legal there.
            error = Rejected if player_action else AdapterError
            raise error(f"phase.rs targeted {chosen[-1]} with {name}, not {refs}")

    def _take(self, seat: int, card: PhaseCard) -> int:
        """A copy of ``card`` owned by ``seat``, moved to its hand: one from the hand or the
        library, else a resolved harness copy from the graveyard (spells are reused), never a
        spell one of our casts put there, which the graveyard shows (404.2, 608.2n)."""
        st = self.pg.state()
        rank = {"Hand": 0, "Library": 1, "Graveyard": 2}
        found = sorted(
            (rank[obj["zone"]], int(key))
            for key, obj in st["objects"].items()
            if obj["name"] == card.name
            and obj["owner"] == seat
            and obj["zone"] in rank
            and int(key) not in self.handles
            and int(key) not in self.spells
        )
        if not found:
            raise NeedCard(seat, card)
        where, oid = found[0]
        if where:
            self.pg.debug("MoveToZone", object_id=oid, to_zone="Hand")
        return oid

    def _add_mana(self, seat: int, cost: Json | None) -> None:
        if not cost or cost.get("type") != "Cost":
            return
        mana = ["Colorless"] * int(cost.get("generic", 0))
        for shard in cost.get("shards", []):
            mana.append(_pay_shard(str(shard)))
        if mana:
            self.pg.debug("AddMana", player_id=seat, mana=mana)

    def _expect_priority(self, seat: int, what: str) -> None:
        waiting = self.pg.waiting()
        if waiting["type"] != "Priority":
            raise Rejected(f"cannot {what}: phase.rs is waiting for {waiting['type']}")
        holder = self.pg.game.priority_player()
        if holder != seat:
            raise Rejected(f"cannot {what} as player {seat}: phase.rs gives priority to {holder}")

    def _expect_prompt(self, kind: str, seat: int) -> None:
        waiting = self.pg.waiting()
        if waiting["type"] != kind or waiting["data"].get("player") != seat:
            raise Rejected(
                f"expected phase.rs to ask player {seat} for {kind}, it waits for {waiting}"
            )

    def _on_battlefield(self, handle: str) -> int:
        oid = self.oid(handle)
        if self.pg.obj(oid)["zone"] != "Battlefield":
            raise AdapterError(f"{handle} is not on the battlefield in phase.rs")
        return oid

    def _settle(self, choices: Sequence[A.ReplacementChoice]) -> None:
        """Answer the prompts our actions have no counterpart for: a replacement choice (from
        the action's choices, 616.1), the order of a player's triggers (603.3b) and
        declarations with nothing to declare."""
        for _ in range(MAX_PROMPTS):
            waiting = self.pg.waiting()
            kind, data = waiting["type"], waiting.get("data") or {}
            if kind == "ReplacementChoice":
                index = self._replacement_index(data, choices)
                self.pg.apply(
                    data["player"], {"type": "ChooseReplacement", "data": {"index": index}}
                )
            elif kind == "OrderTriggers":
                # 603.3b lets a player order their triggers; the model asks nothing and puts
                # them on the stack in the order they triggered (engine.sba._triggers_to_stack,
                # the last one on top). phase.rs's reversed list gives that order (checked by
                # tests/adapters/test_phase_triggers.py: two Jackal Pup triggers of 2 and 1).
                order = list(reversed(range(len(data.get("triggers") or ()))))
                inert = self._inert_pending(data["player"], len(order))
                order = [i for i in order if i not in inert] + [i for i in order if i in inert]
                self.pg.apply(data["player"], {"type": "OrderTriggers", "data": {"order": order}})
            elif kind == "OptionalEffectChoice" and self._may_prompt(data):
                # "that creature's controller may draw a card", "you may gain 1 life" (608.2d):
                # the answer our pass carries for the player the ability names
                self.pg.apply(
                    data["player"],
                    {"type": "DecideOptionalEffect", "data": {"accept": not self.decline}},
                )
            elif kind == "ChooseLegend":
                raise Unexpressible(
                    "phase.rs applies the legend rule (704.5j), which the model leaves out"
                )
            elif kind == "DeclareAttackers" and not data.get("valid_attacker_ids"):
                self.pg.apply(data["player"], {"type": "DeclareAttackers", "data": {"attacks": []}})
            elif kind == "DeclareBlockers" and not data.get("valid_blocker_ids"):
                self.pg.apply(
                    data["player"], {"type": "DeclareBlockers", "data": {"assignments": []}}
                )
            else:
                return
        raise AdapterError("phase.rs kept prompting after the action")

    def _may_prompt(self, data: Json) -> bool:
        """phase.rs asks whether an optional effect of Fecundity's trigger ("that creature's
        controller may draw a card") or Judge of Currents' ("whenever a Merfolk you control
        becomes tapped, you may gain 1 life") is performed, as the trigger resolves: the
        question of 608.2d that our pass answers (``PassPriority.decline``; the model asks it
        at the same moment, ``EffectKind.MAY_DRAW``, ``EffectKind.MAY_GAIN``). The prompt's
        ``source_id`` is the trigger's source, the permanent with the ability (the Judge,
        not the Merfolk that became tapped)."""
        handle = self.handles.get(_int(data.get("source_id", -1)))
        if handle is None:
            return False
        template = self.setup.templates[self.setup.slot_of(handle)]
        return bool(template.dies_draw or template.tapped_watch_life)

    def _follow_draws(self, mark: int) -> None:
        """Keep the model's library cards (``carddata.LIBRARY_CARD``) where the model's draws
        put them. phase.rs's draw step draws a card for the active player (504.1), which the
        model does not (it runs no draw step draw, docs/rules-decisions.md): when that draw
        took one of the model's cards, it goes back on top of the library and a filler card
        is drawn in its place, as if the library had held the filler on top, which a real
        library's hidden order allows. Any other draw is an effect's and must take one of the
        model's cards: one that takes a filler card was a draw from a library the model holds
        empty (121.4, 704.5b), which the filler keeps phase.rs from showing."""
        for seat, oid, turn_based in drawn(self.pg.events[mark:]):
            ours = self.pg.obj(oid)["name"] == LIBRARY_CARD.name
            if turn_based and ours:
                self._redraw(seat, oid)
            elif not turn_based and not ours:
                raise Unexpressible(
                    "a draw from a library that holds none of the model's cards: phase.rs's "
                    "library holds the adapter's filler, so the draw from an empty library "
                    "(121.4, 704.5b) cannot be shown"
                )

    def _redraw(self, seat: int, oid: int) -> None:
        """Put ``oid``, one of the model's library cards that phase.rs's draw step drew, back
        on top of ``seat``'s library, and a filler card into the hand in its place."""
        st = self.pg.state()
        library = [int(x) for x in st["players"][seat]["library"]]
        names = {x: st["objects"][str(x)]["name"] for x in library}
        spare = [x for x in library if names[x] == FILLER.name]
        if not spare:
            raise AdapterError(f"player {seat} has no filler left in the library")
        self.pg.debug("MoveToZone", object_id=oid, to_zone="Library")
        self.pg.debug("MoveToZone", object_id=spare[0], to_zone="Hand")

        def on_top(st: Json) -> None:
            player = st["players"][seat]
            player["library"] = library_on_top(st, player["library"])

        self.pg.edit(on_top)

    def _inert_pending(self, seat: int, count: int) -> set[int]:
        """The indices of ``seat``'s triggers waiting to be ordered that are inert Basilisk
        delayed triggers (``_inert_eoc``): the adapter puts them on top, so that they resolve
        first and the stack then holds what the model's does (an order ends last on top)."""
        st = self.pg.state()
        groups = (st.get("pending_trigger_order") or {}).get("groups") or ()
        mine = [g for g in groups if g.get("controller") == seat and not g.get("ordered")]
        if len(mine) != 1 or len(mine[0].get("triggers") or ()) != count:
            return set()
        out = set()
        for i, trigger in enumerate(mine[0]["triggers"]):
            ability = (trigger.get("pending") or {}).get("ability") or {}
            if self._inert_eoc(st, {"source_id": ability.get("source_id"), "ability": ability}):
                out.add(i)
        return out

    def _replacement_index(self, data: Json, choices: Sequence[A.ReplacementChoice]) -> int:
        candidates: list[Json] = data["candidates"]
        kinds = [_candidate_kind(c) for c in candidates]
        affected = {self.handles.get(int(c["source_id"])) for c in candidates}
        for choice in choices:
            if choice.by != data["player"] or choice.permanent not in affected:
                continue
            wanted = _use_kind(choice.use)
            for index, (kind, cand) in enumerate(zip(kinds, candidates, strict=True)):
                if kind is wanted and (
                    kind is not ReplacementKind.UMBRA
                    or self.handles.get(int(cand["source_id"])) == choice.use.partition(":")[2]
                ):
                    return index
            raise Rejected(f"phase.rs offers no {choice.use!r} replacement: {candidates}")
        if all(k is ReplacementKind.SHIELD for k in kinds):
            return 0  # identical regeneration shields: any one (phase.rs shields have no origin)
        # A choice our rules did not ask for (the action has no answer for it): answer as told,
        # and record it so that the adapter can try the other answers.
        self.asked.append([_describe_candidate(c, self.handles) for c in candidates])
        answer = self.forced.pop(0) if self.forced else 0
        return answer if 0 <= answer < len(candidates) else 0


def _mana_cost(cost: Json) -> Json | None:
    """The mana part of a phase.rs ability cost: the cost itself, or the ``Mana`` member of a
    ``Composite`` one ("{G}{G}{G}{G}, {T}": Niall Silvain)."""
    if cost.get("type") == "Mana":
        found: Json | None = cost.get("cost")
        return found
    if cost.get("type") == "Composite":
        for part in cost.get("costs") or ():
            if part.get("type") == "Mana":
                inner: Json | None = part.get("cost")
                return inner
    return None


def _pay_shard(shard: str) -> str:
    """The mana that pays one phase.rs mana shard: a colour itself, or the first colour of a
    hybrid one ("WhiteBlack" for {W/B}, 107.4e: either half pays it)."""
    if shard in _COLOURS:
        return shard
    for colour in ("White", "Blue", "Black", "Red", "Green"):
        if shard.startswith(colour) and shard[len(colour) :] in _COLOURS:
            return colour
    raise AdapterError(f"cannot pay the mana symbol {shard!r}")


_PHASE_KEYWORDS = {
    Keyword.DEATHTOUCH: "Deathtouch",
    Keyword.WITHER: "Wither",
    Keyword.INFECT: "Infect",
    Keyword.LIFELINK: "Lifelink",
}


def _ability_index(abilities: list[Json], kind: AbilityKind) -> int | None:
    """The index of phase.rs's activated ability that is our ``kind``: equip by its tag,
    "Regenerate enchanted creature" by its target (the host, 702.5), "Regenerate target
    creature" by its typed target (602.2b), "Regenerate this creature" as the other
    regeneration, and the rest (Knight of the Holy Nimbus's {2}) as the one that is none of
    these. Soldevi Sentry's "Choose target opponent. Regenerate this creature." is a
    ``TargetOnly`` effect (the opponent) whose sub-ability is the regeneration: the
    regeneration is what tells it apart."""
    for index, ability in enumerate(abilities):
        if ability.get("kind") != "Activated":
            continue
        effect = ability.get("effect") or {}
        sub = (ability.get("sub_ability") or {}).get("effect") or {}
        if effect.get("type") == "TargetOnly" and sub.get("type") == "Regenerate":
            effect = sub
        tag = (ability.get("ability_tag") or {}).get("type")
        host = any(
            p.get("type") in ("EnchantedBy", "EquippedBy")
            for p in (effect.get("target") or {}).get("properties") or ()
        )
        regen = effect.get("type") == "Regenerate"
        # "Regenerate target creature" (Suture Spirit, Niall Silvain, Vigilant Martyr): a
        # typed target that is not the host, where "Regenerate this creature" is SelfRef
        targeted = regen and not host and (effect.get("target") or {}).get("type") == "Typed"
        found = {
            AbilityKind.EQUIP: tag == "Equip",
            AbilityKind.REGENERATE_HOST: regen and host,
            AbilityKind.REGENERATE_TARGET: targeted,
            AbilityKind.REGENERATE_SELF: regen and not host and not targeted,
        }.get(kind, not regen and tag != "Equip")
        if found:
            return index
    return None


def drawn(events: Sequence[Json]) -> list[tuple[int, int, bool]]:
    """``(player, object, turn_based)`` for each card phase.rs reports drawn (``CardDrawn``)
    in ``events``, in order. The turn-based draw (504.1) is the one that comes right as a draw
    step begins: after ``PhaseChanged`` to ``Draw`` with nothing but the card's own zone
    change in between; every other draw is an effect's."""
    out: list[tuple[int, int, bool]] = []
    last = None  # the last event before this one, other than a zone change
    for event in events:
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "CardDrawn":
            turn_based = last == "PhaseChanged:Draw"
            out.append((_int(data.get("player_id")), _int(data.get("object_id")), turn_based))
        if kind == "PhaseChanged":
            last = f"PhaseChanged:{data.get('phase')}"
        elif kind != "ZoneChanged":
            last = str(kind)
    return out


def _int(value: object) -> int:
    return value if isinstance(value, int) else -1


def _targets_gone(st: Json, ability: Json) -> bool:
    """Every object the ability targets is gone: off the battlefield or a new object (400.7),
    by the incarnation phase.rs recorded with the target."""
    recorded = ability.get("target_incarnations") or ()
    if not recorded:
        return False
    for ref in recorded:
        obj = st["objects"].get(str(ref.get("object_id")))
        same = obj is not None and obj.get("incarnation") == ref.get("incarnation")
        if same and obj["zone"] == "Battlefield":
            return False
    return True


def _stack_source(entry: Json) -> int | None:
    """The object a stack entry belongs to: the spell itself, or an ability's source."""
    if entry["kind"]["type"] == "Spell":
        return int(entry["id"])
    data = entry["kind"].get("data") or {}
    source = data.get("source_id", entry.get("source_id"))
    return int(source) if isinstance(source, int) else None


def _describe_candidate(candidate: Json, handles: dict[int, str]) -> str:
    """``"static regeneration (troll)"``: a replacement candidate in our words, for messages."""
    kind = _candidate_kind(candidate)
    source = handles.get(int(candidate["source_id"]), str(candidate.get("source_name")))
    if kind is None:
        return f"a prevention effect ({source})"
    words = {
        ReplacementKind.SHIELD: "a regeneration shield",
        ReplacementKind.STATIC: "static regeneration",
        ReplacementKind.SHIELD_COUNTER: "a shield counter",
        ReplacementKind.UMBRA: "umbra armor",
    }
    return f"{words[kind]} ({source})"


def _candidate_kind(candidate: Json) -> ReplacementKind | None:
    """Which of our replacement kinds a phase.rs candidate is; ``None`` for a prevention
    effect (615), which no choice of ours names."""
    text = str(candidate.get("description") or "")
    if text == "Prevent damage":
        return None
    if text == "Regenerate":
        return ReplacementKind.SHIELD
    if "regenerate it" in text:
        return ReplacementKind.STATIC
    if "shield counter" in text.lower():
        return ReplacementKind.SHIELD_COUNTER
    return ReplacementKind.UMBRA


def _use_kind(use: str) -> ReplacementKind:
    if use.startswith("shield-counter"):
        return ReplacementKind.SHIELD_COUNTER
    if use.startswith("shield"):
        return ReplacementKind.SHIELD
    if use.startswith("umbra"):
        return ReplacementKind.UMBRA
    return ReplacementKind.STATIC


def _is_prevention(definition: Json) -> bool:
    kind = definition.get("shield_kind")
    return isinstance(kind, dict) and "Prevention" in kind


def _attached_to(obj: Json) -> int | None:
    """The object an Aura or Equipment is attached to (``{"type": "Object", "data": id}``)."""
    ref = obj.get("attached_to")
    if isinstance(ref, dict) and ref.get("type") == "Object":
        return int(ref["data"])
    return None


def _attached(obj: Json) -> list[int]:
    return [int(x) for x in obj.get("attachments") or ()]


def _subjects(event: Json) -> set[int]:
    data = event.get("data") or {}
    keys = ("object_id", "source_id", "attachment_id")
    return {int(data[k]) for k in keys if isinstance(data.get(k), int)}


def _require_quiet(events: list[Json], spell: int, allowed: set[int], kind: str) -> None:
    """After the harness spell resolved, nothing but the effect itself may have happened.

    phase.rs reports a replacement choice made during the resolution after the spell's
    ``StackResolved``, so events about the objects the effect concerns (``allowed``) are part
    of the resolution; anything else after it is phase.rs's state-based-action check.
    """
    after = None
    for index, event in enumerate(events):
        data = event.get("data") or {}
        if event.get("type") == "StackResolved" and data.get("object_id") == spell:
            after = index
    if after is None:
        raise AdapterError(f"the harness spell for {kind} did not resolve")
    loud = [
        str(e.get("type"))
        for e in events[after + 1 :]
        if e.get("type") not in _QUIET and not (_subjects(e) and _subjects(e) <= allowed | {spell})
    ]
    if loud:
        raise Unexpressible(
            f"phase.rs performed state-based actions right after the {kind} effect "
            f"({', '.join(loud)}); the model leaves them to the next check"
        )
