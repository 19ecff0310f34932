"""A start state another engine can set up: players, rule edition, turn position, permanents.

The reference engine starts from any ``GameState``; another engine needs a description it can
build its own game from. ``Start`` is that description (the arguments of ``model.build
.make_state``), with a JSON form used by ITF traces (``#meta.setup``), the JSON-lines protocol
(``{"op": "start", "state": ...}``) and conformance vectors (``start``):

    {"players": ["A", "B"], "edition": "FDN", "step": "main1", "active": "A", "priority": "A",
     "life": {"A": 20, "B": 20},
     "permanents": [{"handle": "troll", "card": "Horned Troll", "owner": "A", "damage": 1,
                     "shields": [{"origin": "Death Ward", "creator": "A"}]}],
     "definitions": [{"name": "Custom Troll", "types": ["creature"], "power": 2, ...}]}

Cards are named by handle; ``card`` is a built-in card name (``model/cards.py``) or the name of
an inline definition. The setup block of a scenario file (docs/scenarios.md: ``permanents``
keyed by handle, ``turn``) is accepted too and read by the scenario loader. Fields at their default are left out. A state in the middle of things
(objects on the stack, a combat, "until end of turn" effects) is not a start: ``from_state``
raises ``NotExpressible`` so that adapters can report the case as unsupported.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from regen_model.conform.codec import Json, Players, decode_record, encode_record
from regen_model.conform.jsonpos import Node, in_memory
from regen_model.model.build import CardSpec, make_state, start_plus
from regen_model.model.cards import PERMANENT_CARDS, CardTemplate
from regen_model.model.derived import controller
from regen_model.model.enums import Decision, Edition, Keyword, Rider, Step, Zone
from regen_model.model.state import Card, Combat, GameState, Shield


class NotExpressible(Exception):
    """The state cannot be written as a start (it is in the middle of something)."""


PERMANENT_FIELDS = frozenset(
    {
        "handle",
        "card",
        "owner",
        "controller",
        "zone",
        "tapped",
        "damage",
        "plus_counters",
        "minus_counters",
        "shield_counters",
        "attached_to",
        "shields",
        "unregenerable",
        "deathtouched",
        "summoning_sick",
        "animated",
        "not_a_creature",
        "prevent_next",
        "prevent_all",
        "exile_if_dies",
        "remove_damage_instead",
        "phased_out",
        "keywords",
    }
)
START_FIELDS = frozenset(
    {
        "players",
        "edition",
        "turn",
        "active",
        "step",
        "priority",
        "life",
        "library",
        "permanents",
        "definitions",
    }
)


@dataclass(frozen=True)
class Start:
    """Everything ``make_state`` needs; ``life`` and ``library`` (how many cards each
    player's library holds, 121.1) are one value per player."""

    players: tuple[str, ...]
    cards: tuple[CardSpec, ...]
    edition: Edition = Edition.FDN
    turn: int = 1
    active: int = 0
    step: Step = Step.MAIN1
    priority: int | None = 0
    life: tuple[int, ...] = (20, 20)
    library: tuple[int, ...] = (0, 0)

    def build(self) -> GameState:
        return make_state(
            self.players,
            self.cards,
            edition=self.edition,
            turn=self.turn,
            active=self.active,
            step=self.step,
            priority=self.priority,
            life=self.life,
            library=self.library,
        )

    @property
    def handles(self) -> tuple[str, ...]:
        return tuple(c.handle for c in self.cards)

    def without(self, handle: str) -> Start:
        """The start without one card: things attached to it become unattached, and a
        shield's ``via`` (the slot, by position here, of the Aura or Equipment whose ability
        made it) follows the cards after it down one position, or is dropped with the card
        (nothing in the rules reads it; left as it was, it would name another card, or none)."""
        gone = self.handles.index(handle)

        def moved(via: int | None) -> int | None:
            if via is None or via < gone:
                return via
            return None if via == gone else via - 1

        cards = tuple(
            replace(
                c,
                attached_to=None if c.attached_to == handle else c.attached_to,
                shields=tuple(s._replace(via=moved(s.via)) for s in c.shields),
            )
            for c in self.cards
            if c.handle != handle
        )
        return replace(self, cards=cards)

    # --- JSON ----------------------------------------------------------------------------------

    def to_json(self, *, define_all: bool = False) -> Json:
        """The JSON form; with ``define_all``, ``definitions`` holds every card of the start,
        built-in ones too, so that a reader needs nothing from ``model/cards.py``
        (conformance vectors are self-contained this way)."""
        p = Players(self.players)
        out: dict[str, Json] = {"players": list(self.players), "edition": self.edition.value}
        if self.turn != 1:
            out["turn"] = self.turn
        out["step"] = self.step.value
        out["active"] = p.encode(self.active)
        out["priority"] = None if self.priority is None else p.encode(self.priority)
        if any(v != 20 for v in self.life):
            out["life"] = {name: v for name, v in zip(self.players, self.life, strict=True)}
        if any(self.library):
            out["library"] = {name: v for name, v in zip(self.players, self.library, strict=True)}
        handles = tuple(c.handle for c in self.cards)
        out["permanents"] = [_card_to_json(c, p, handles) for c in self.cards]
        custom = (
            list(dict.fromkeys(c.template for c in self.cards))
            if define_all
            else _custom_templates(self.cards)
        )
        if custom:
            out["definitions"] = [encode_record(t, p, keep=frozenset({"types"})) for t in custom]
        return out

    @classmethod
    def from_json(cls, data: Json) -> Start:
        """Raises ``jsonpos.FieldError`` on a bad value."""
        return cls.from_node(in_memory(data))

    @classmethod
    def from_node(cls, node: Node) -> Start:
        """Read a start in this module's form, or in the scenario format's setup form
        (``permanents`` keyed by handle, ``turn``, players with life: docs/scenarios.md)."""
        raw = node.obj_raw()
        if isinstance(raw.get("permanents"), dict) or isinstance(raw.get("turn"), dict):
            return _from_scenario_setup(node)
        node.check_keys(START_FIELDS, "the setup")
        names_node = node.req("players")
        names = tuple(n.string() for n in names_node.elements())
        if len(names) != 2 or len(set(names)) != 2:
            raise names_node.error("the model plays two players with distinct names")
        p = Players(names)
        library = dict(PERMANENT_CARDS)
        defs = node.get("definitions")
        for d in defs.elements() if defs is not None else []:
            template: CardTemplate = decode_record(d, CardTemplate, p)
            library[template.name] = template
        edition = Edition.FDN
        if (e := node.get("edition")) is not None:
            edition = Edition(e.choice([m.value for m in Edition]))
        step = Step.MAIN1
        if (s := node.get("step")) is not None:
            step = Step(s.choice([m.value for m in Step]))
        active = p.decode(a) if (a := node.get("active")) is not None else 0
        priority: int | None = active
        if node.has("priority"):
            pr = node.get("priority")
            priority = None if pr is None else p.decode(pr)
        life = [20, 20]
        if (lf := node.get("life")) is not None:
            for name, value in lf.items():
                if name not in names:
                    raise value.error(f"unknown player {name!r}")
                life[names.index(name)] = value.integer()
        libraries = [0, 0]
        if (lib := node.get("library")) is not None:
            for name, value in lib.items():
                if name not in names:
                    raise value.error(f"unknown player {name!r}")
                count = value.integer()
                if count < 0:
                    raise value.error("a library holds 0 or more cards")
                libraries[names.index(name)] = count
        cards: list[CardSpec] = []
        handles: list[str] = []
        perms = node.req("permanents")
        # a shield's ``via`` names a card by handle; its slot is that card's place in the list
        slots: dict[str, int] = {}
        for i, item in enumerate(perms.elements()):
            if (h := item.get("handle")) is not None and isinstance(h.value, str):
                slots.setdefault(h.value, i)
        for item in perms.elements():
            spec = _card_from_node(item, p, library, slots)
            if spec.handle in handles:
                raise item.req("handle").error(f"handle {spec.handle!r} is used twice")
            handles.append(spec.handle)
            cards.append(spec)
        for item, spec in zip(perms.elements(), cards, strict=True):
            if spec.attached_to is not None and spec.attached_to not in handles:
                raise item.req("attached_to").error(f"no card with handle {spec.attached_to!r}")
        turn = t.integer() if (t := node.get("turn")) is not None else 1
        return cls(
            names,
            tuple(cards),
            edition,
            turn,
            active,
            step,
            priority,
            tuple(life),
            tuple(libraries),
        )

    @classmethod
    def from_state(cls, state: GameState) -> Start:
        """The start that builds ``state`` (up to incarnation numbers, ghost bookkeeping and
        the graveyards: the cards in them lie there in slot order, each on its own, and the
        spells there are gone; no rule reads a graveyard, so the futures are the same, and the
        observable projection has none, ``observe.py``)."""
        if state.stack or state.pending:
            raise NotExpressible("objects are on the stack or waiting to be put there")
        if state.decision is not Decision.NONE or state.passed:
            raise NotExpressible(f"the game is in the middle of a step ({state.decision.value})")
        if state.combat != Combat():
            raise NotExpressible("a combat is under way")
        if any(pl.lost for pl in state.players):
            raise NotExpressible("a player has lost")
        if any(pl.hand or pl.drew_empty for pl in state.players):
            raise NotExpressible("a player has cards in hand or drew from an empty library")
        setup = state.setup
        specs: list[CardSpec] = []
        for card in state.cards:
            if card.control_eot is not None or card.power_eot or card.toughness_eot:
                raise NotExpressible(f"{setup.handles[card.slot]} has until-end-of-turn effects")
            if card.kw_removed or card.in_combat or card.blocked:
                raise NotExpressible(f"{setup.handles[card.slot]} is in combat or lost a keyword")
            # A delayed trigger waiting on the object (603.7) has no field in the start format;
            # such a start is refused rather than written without it.
            if card.eoc_destroy:
                raise NotExpressible(
                    f"{setup.handles[card.slot]} is to be destroyed at end of combat"
                )
            specs.append(
                CardSpec(
                    handle=setup.handles[card.slot],
                    template=setup.templates[card.slot],
                    owner=setup.owners[card.slot],
                    controller=None
                    if controller(card) == setup.owners[card.slot]
                    else controller(card),
                    zone=card.zone,
                    tapped=card.tapped,
                    damage=card.damage,
                    plus=card.plus,
                    minus=card.minus,
                    shield_counters=card.shield_counters,
                    attached_to=None
                    if card.attached_to is None
                    else setup.handles[card.attached_to],
                    shields=card.shields,
                    cant_regen=card.cant_regen,
                    deathtouched=card.deathtouched,
                    granted=card.kw_granted,
                    sick=card.sick,
                    animated=card.animated,
                    noncreature=card.noncreature,
                    prevent_next=card.prevent_next,
                    prevent_all=card.prevent_all,
                    exile_if_dies=card.exile_if_dies,
                    remove_damage=card.remove_damage,
                    phased_out=_phased_directly(state, card),
                )
            )
        return cls(
            players=setup.player_names,
            cards=tuple(specs),
            edition=state.edition,
            turn=state.turn,
            active=state.active,
            step=state.step,
            priority=state.priority,
            life=tuple(pl.life for pl in state.players),
            library=tuple(pl.library for pl in state.players),
        )


SCENARIO_SETUP_FIELDS = frozenset({"players", "edition", "turn", "permanents", "spells"})


def _from_scenario_setup(node: Node) -> Start:
    """The setup block of a scenario file, read by the scenario loader itself (so both
    formats accept exactly the same setups), then described as a ``Start``."""
    from regen_model.scenario import ScenarioError, load_scenario

    node.check_keys(SCENARIO_SETUP_FIELDS, "a scenario-format setup")
    document = {"name": "setup", "description": "setup of a trace", **node.obj_raw(), "events": []}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "setup.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        try:
            scenario = load_scenario(path, shown_as=node.doc.file)
        except ScenarioError as exc:
            where = f"{exc.field}: " if exc.field else ""
            raise node.error(f"scenario-format setup: {where}{exc.message}") from None
    try:
        return Start.from_state(scenario.start)
    except NotExpressible as exc:  # a start the format lacks a field for (a delayed trigger)
        raise node.error(str(exc)) from None


def _custom_templates(cards: tuple[CardSpec, ...]) -> list[CardTemplate]:
    out: list[CardTemplate] = []
    for c in cards:
        t = c.template
        if PERMANENT_CARDS.get(t.name) != t and t not in out:
            out.append(t)
    return out


def _card_to_json(c: CardSpec, p: Players, handles: tuple[str, ...]) -> Json:
    out: dict[str, Json] = {"handle": c.handle, "card": c.template.name, "owner": p.encode(c.owner)}
    if c.controller is not None and c.controller != c.owner:
        out["controller"] = p.encode(c.controller)
    if c.zone is not Zone.BATTLEFIELD:
        out["zone"] = c.zone.value
    for key, value, default in (
        ("tapped", c.tapped, False),
        ("damage", c.damage, 0),
        ("plus_counters", start_plus(c), c.template.enters_plus),
        ("minus_counters", c.minus, 0),
        ("shield_counters", c.shield_counters, 0),
        ("attached_to", c.attached_to, None),
        ("unregenerable", c.cant_regen, False),
        ("deathtouched", c.deathtouched, False),
        ("summoning_sick", c.sick, False),
        ("animated", c.animated, False),
        ("not_a_creature", c.noncreature, False),
        ("prevent_next", c.prevent_next, 0),
        ("prevent_all", c.prevent_all, False),
        ("exile_if_dies", c.exile_if_dies, False),
        ("remove_damage_instead", c.remove_damage, 0),
        ("phased_out", c.phased_out, False),
    ):
        if value != default:
            out[key] = value
    if c.shields:
        out["shields"] = [_shield_to_json(s, p, handles) for s in c.shields]
    if c.granted:
        out["keywords"] = sorted(k.value for k in c.granted)
    return out


def _shield_to_json(s: Shield, p: Players, handles: tuple[str, ...]) -> Json:
    """A shield; ``via`` (the Aura or Equipment whose ability made it, by handle) only when
    set: nothing in the rules reads it, but the engine's ``attach.shields-stay`` note and the
    ``shield-on-attachment`` mutant do, so a case written from a state must keep it to replay
    the same run."""
    out: dict[str, Json] = {"origin": s.origin, "creator": p.encode(s.creator)}
    if s.rider is not Rider.NONE:
        out["rider"] = s.rider.value
    if s.used:
        out["used"] = True
    if s.via is not None:
        out["via"] = handles[s.via]
    return out


def _card_from_node(
    node: Node, p: Players, library: dict[str, CardTemplate], slots: dict[str, int]
) -> CardSpec:
    node.check_keys(PERMANENT_FIELDS, "a permanent")
    handle = node.req("handle").string()
    name_node = node.req("card")
    template = library.get(name_node.string())
    if template is None:
        raise name_node.error(
            f"unknown card {name_node.string()!r}: use a built-in card or add a definition"
        )
    owner = p.decode(node.req("owner"))
    ctrl = p.decode(c) if (c := node.get("controller")) is not None else None
    zone = Zone.BATTLEFIELD
    if (z := node.get("zone")) is not None:
        zone = Zone(z.choice([m.value for m in Zone]))

    def num(key: str) -> int:
        n = node.get(key)
        if n is None:
            return 0
        value = n.integer()
        if value < 0:
            raise n.error("must be 0 or more")
        return value

    def flag(key: str) -> bool:
        n = node.get(key)
        return False if n is None else n.boolean()

    shields: list[Shield] = []
    sh = node.get("shields")
    for s in sh.elements() if sh is not None else []:
        s.check_keys({"origin", "creator", "rider", "used", "via"}, "a shield")
        rider = Rider.NONE
        if (r := s.get("rider")) is not None:
            rider = Rider(r.choice([m.value for m in Rider]))
        creator = (
            p.decode(c)
            if (c := s.get("creator")) is not None
            else (owner if ctrl is None else ctrl)
        )
        origin = o.string() if (o := s.get("origin")) is not None else "regeneration shield"
        used = u.boolean() if (u := s.get("used")) is not None else False
        via: int | None = None
        if (v := s.get("via")) is not None:
            name = v.string()
            if name not in slots:
                raise v.error(f"no card with handle {name!r}")
            via = slots[name]
        shields.append(Shield(origin, creator, rider, used, via))
    granted: frozenset[Keyword] = frozenset()
    if (k := node.get("keywords")) is not None:
        granted = frozenset(Keyword(x.choice([m.value for m in Keyword])) for x in k.elements())
    attached = a.string() if (a := node.get("attached_to")) is not None else None
    return CardSpec(
        handle=handle,
        template=template,
        owner=owner,
        controller=ctrl,
        zone=zone,
        tapped=flag("tapped"),
        damage=num("damage"),
        plus=num("plus_counters") if node.get("plus_counters") is not None else None,
        minus=num("minus_counters"),
        shield_counters=num("shield_counters"),
        attached_to=attached,
        shields=tuple(shields),
        cant_regen=flag("unregenerable"),
        deathtouched=flag("deathtouched"),
        granted=granted,
        sick=flag("summoning_sick"),
        animated=flag("animated"),
        noncreature=flag("not_a_creature"),
        prevent_next=num("prevent_next"),
        prevent_all=flag("prevent_all"),
        exile_if_dies=flag("exile_if_dies"),
        remove_damage=num("remove_damage_instead"),
        phased_out=flag("phased_out"),
    )


def _phased_directly(state: GameState, card: Card) -> bool:
    """Phased out, and not only with its host (an attachment of a phased-out permanent is
    phased out with it when the start is built, 702.26g)."""
    if card.phased_out is None:
        return False
    host = None if card.attached_to is None else state.cards[card.attached_to]
    return host is None or host.phased_out is None


def describe(start: Start) -> list[str]:
    """One line per card, for reports: ``troll: Horned Troll (A), damage 1, 1 shield``."""
    lines = []
    for c in start.cards:
        bits = [f"{c.handle}: {c.template.name} ({start.players[c.owner]})"]
        if c.controller is not None and c.controller != c.owner:
            bits.append(f"controlled by {start.players[c.controller]}")
        if c.zone is not Zone.BATTLEFIELD:
            bits.append(f"in {c.zone.value}")
        if c.tapped:
            bits.append("tapped")
        if c.damage:
            bits.append(f"damage {c.damage}")
        for label, n in (
            ("+1/+1", start_plus(c)),
            ("-1/-1", c.minus),
            ("shield counter", c.shield_counters),
        ):
            if n:
                bits.append(f"{n} {label}")
        if c.shields:
            bits.append(f"{len(c.shields)} shield(s)")
        if c.cant_regen:
            bits.append("can't be regenerated this turn")
        if c.sick:
            bits.append("summoning sick")
        if c.animated:
            bits.append("animated")
        if c.noncreature:
            bits.append("not a creature")
        if c.prevent_next:
            bits.append(f"prevent the next {c.prevent_next} damage")
        if c.prevent_all:
            bits.append("prevent all damage")
        if c.exile_if_dies:
            bits.append("exiled instead if it would die this turn")
        if c.remove_damage:
            bits.append(
                f"{c.remove_damage} Pyramids effect(s): damage removed instead of destruction"
            )
        if c.phased_out:
            bits.append("phased out")
        if c.attached_to:
            bits.append(f"attached to {c.attached_to}")
        if c.granted:
            bits.append("has " + ", ".join(sorted(k.value for k in c.granted)))
        lines.append(", ".join(bits))
    return lines
