"""Pages: the lobby, a game (play / watch), its replay, the board as SVG, leaderboards.

Thin: reads come from `games.selectors`, writes go through `games.services` exactly as
the API's do. The pages embed their first data as JSON (`json_script`) so the board is
drawn without waiting for a request; the ES modules in `static/js/` take it from there.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.dateparse import parse_datetime
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bloqueio_site import limits, strict_json
from bloqueio_site.errors import ServiceError
from games import (
    bots,
    engine,
    invitations,
    leavers,
    my_games,
    privacy,
    rematch,
    selectors,
    services,
    texts,
)
from games.boards import board_css, page_seat_styles
from games.drawings import render_svg, rules_figures
from games.engine.notation import format_cell
from games.live import presence
from games.models import Game, InvitationStatus, Seat, Status
from games.round import TURN_BASED_DAYS, first_move_seconds, turn_based

# The lobby's time controls: key -> (label, initial seconds, increment seconds); "" =
# untimed. Turn-based ones are "<days>d" (TURN_BASED_DAYS), labelled per request.
TIME_CONTROLS = {
    "": (gettext_lazy("No clock"), None, None),
    "60+1": ("1 min + 1 s", 60, 1),
    "120+2": ("2 min + 2 s", 120, 2),
    "180+2": ("3 min + 2 s", 180, 2),
    "300+3": ("5 min + 3 s", 300, 3),
    "600+5": ("10 min + 5 s", 600, 5),
    "1800+20": ("30 min + 20 s", 1800, 20),
}
MY_GAMES = 12


def time_control_groups() -> list[tuple[str | None, list[tuple[str, str]]]]:
    """The lobby's time-control menu: untimed, then the "Live" and "Turn-based" groups
    of (form value, label)."""
    live = [(key, str(label)) for key, (label, initial, _inc) in TIME_CONTROLS.items()
            if initial is not None]
    days = [(f"{n}d", _days_label(n)) for n in TURN_BASED_DAYS]
    return [(None, [("", str(TIME_CONTROLS[""][0]))]),
            (pgettext("time controls", "Live"), live),
            (pgettext("time controls", "Turn-based"), days)]


def _time_control(key: str) -> dict[str, int] | None:
    """The time control a form's value names; ValueError if it names none. A lobby key,
    or a game's own clock for "Play again" ("300+3", "3d"); the service checks the
    numbers."""
    if key in TIME_CONTROLS:
        _label, initial, increment = TIME_CONTROLS[key]
        return None if initial is None else {"initial": initial, "increment": increment}
    if re.fullmatch(r"[0-9]{1,6}\+[0-9]{1,4}", key):
        initial, increment = (int(part) for part in key.split("+"))
        return {"initial": initial, "increment": increment}
    if re.fullmatch(r"[0-9]{1,2}d", key):
        return {"days": int(key[:-1])}
    raise ValueError(key)


def _per_move(time_control: dict[str, int] | None) -> str | None:
    """A turn-based game's label in game lists ("3 days per move"); None otherwise."""
    if time_control is None or not turn_based(time_control):
        return None
    return _days_label(time_control["days"])


def _days_label(days: int) -> str:
    return ngettext("%(days)s day per move", "%(days)s days per move", days) % {"days": days}


def _bot_levels(kind: str | None = None) -> list[tuple[str, str]]:
    """The bot levels, in the order offered: every level for the lobby's form (lobby.js
    shows each kind's own), else those `kind` offers (`perfect` only where solved)."""
    levels = bots.LEVELS if kind is None else bots.levels(engine.get(kind))
    return [(level, texts.level_label(level)) for level in levels]


def _bad_ply(game: Game) -> str:
    return _("ply must be a whole number from 0 to %(last)s.") % {"last": game.ply}


def _game_or_404(request: HttpRequest, game_id: int) -> Game:
    """The game, when the reader may see it (a private one: games/privacy.py)."""
    game = selectors.get_game(game_id)
    if game is None or not privacy.may_view(game, request.user, privacy.tokens_of(request)):
        raise Http404(f"No game {game_id}.")
    return game


def _kinds() -> list[dict[str, Any]]:
    out = []
    for k in engine.KINDS:
        info = engine.get(k).info
        seats = [{**s, "name": texts.colour(s["name"])} for s in page_seat_styles(k)]
        out.append({"kind": k, "label": texts.kind_title(k), "seats": seats,
                    "menu_label": texts.menu_label(k),
                    "summary": texts.kind_summary(k), "players": info.seats,
                    "clock": info.clock, "levels": list(bots.levels(engine.get(k)))})
    return out


def _event_rows(game: Game) -> list[dict[str, Any]]:
    """The game's events with their notation (rules.format_action) and, where a seat
    plays several colours (2-player Blokus), the colour that moved: the state's
    `colour` to move before it (docs/api.md), so the move list marks Red's move R,
    not with its seat's first colour."""
    rules = engine.get(game.kind)
    rows = selectors.events_after(game.pk)
    several = len(rules.info.colours) > rules.info.seats
    state = rules.initial() if several else None
    for row in rows:
        event = rules.parse_event(selectors.engine_event(row["action"], row["seat"]))
        row["text"] = rules.format_action(event)
        if state is not None:
            row["colour"] = state.to_json().get("colour")
            state = rules.apply_event(state, event)
    return rows


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    """My games: every live game of the caller, theirs to move first."""
    games = [{**g, "label": texts.kind_title(g["kind"]), "status_label": texts.status(g["status"]),
              "side": texts.seat_name(g["kind"], g["seat"]),
              "per_move": _per_move(g["time_control"]),
              "deadline_at": parse_datetime(g["deadline"]) if g["deadline"] else None}
             for g in my_games.active_games(request.user.pk)]
    return render(request, "games/mine.html", {"games": games})


def lobby(request: HttpRequest) -> HttpResponse:
    mine: list[dict[str, Any]] = []
    if request.user.is_authenticated:
        seats = (Seat.objects.filter(user=request.user).select_related("game")
                 .order_by("-game__created_at")[:MY_GAMES])
        mine = [{"id": s.game.pk, "kind": s.game.kind, "label": texts.kind_title(s.game.kind),
                 "status": s.game.status, "status_label": texts.status(s.game.status),
                 "seat": s.seat, "ply": s.game.ply,
                 "ranked": s.game.ranked, "per_move": _per_move(s.game.time_control),
                 "won": bool(s.game.result and s.game.result.get("winner") == s.seat)}
                for s in seats]
    live = my_games.active_games(request.user.pk) if request.user.is_authenticated else []
    kinds = _kinds()
    groups = time_control_groups()
    # One level select per seat besides yours, for the kind with the most seats; the
    # ones past the chosen kind's seats are optional ("none") and hidden by lobby.js.
    fewest = min(k["players"] for k in kinds)
    bot_seats = [{"seat": seat, "optional": seat >= fewest}
                 for seat in range(1, max(k["players"] for k in kinds))]
    return render(request, "games/lobby.html", {
        "kinds": kinds, "time_control_groups": groups, "my_games": mine,
        "ranked_days": [(key[:-1], label) for key, label in groups[-1][1]],
        "live_count": len(live), "turn_count": sum(g["your_turn"] for g in live),
        "bot_levels": _bot_levels(), "bot_seats": bot_seats,
        "bot_about": [(texts.level_label(level), texts.bot_about(level))
                      for level in bots.LEVELS],
        "lobby_data": {"kinds": kinds, "user": request.user.username or None},
        "first_move": _first_move(),
    })


def _computer_levels(request: HttpRequest) -> list[str] | None:
    """The bot levels chosen in the "Play against the computer" form, seat by seat
    ("none" selects left out); None when the post came from another form."""
    if request.POST.get("opponents") != "computer":
        return None
    return [level for level in request.POST.getlist("bots") if level]


def _back_to_form(request: HttpRequest, detail: str, computer: bool) -> HttpResponse:
    messages.error(request, detail)
    return redirect(reverse("home") + ("#computer" if computer else ""))


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    kind = request.POST.get("kind", "")
    tc_key = request.POST.get("time_control", "")
    levels = _computer_levels(request)
    computer = levels is not None
    if computer and kind in engine.KINDS:
        others = engine.get(kind).info.seats - 1
        if len(levels) < others:  # more than `others` is the service's too_many_bots
            return _back_to_form(request, ngettext(
                "Pick the computer's level for every other seat (this game has %(count)s).",
                "Pick the computer's level for every other seat (this game has %(count)s).",
                others) % {"count": others}, computer)
    try:
        time_control = _time_control(tc_key)
    except ValueError:
        return _back_to_form(request, _("Pick a time control from the list."), computer)
    try:
        game = services.create_game(user=request.user, kind=kind,
                                    ranked=request.POST.get("ranked") == "1",
                                    time_control=time_control, bots=levels or [],
                                    address=limits.address_of(request),
                                    private=request.POST.get("private") == "1")
    except ServiceError as exc:
        return _back_to_form(request, exc.detail, computer)
    return redirect("game", game_id=game.pk)


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    held = privacy.session_tokens(request.session)
    invite = next((t for t in held if Game.objects.filter(pk=game_id, invite_token=t).exists()),
                  None) if held else None
    try:
        game = services.join_game(game_id=game_id, user=request.user, invite=invite,
                                  address=limits.address_of(request))
    except ServiceError as exc:
        messages.error(request, exc.detail)
    else:
        if game.status == Status.ACTIVE:  # the last seat: the others hear it live
            messages.success(request,
                             _("You took the last seat: the game has started. Good luck!"))
    return redirect("game", game_id=game_id)


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.leave_game(game_id=game_id, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.detail)
        return redirect("game", game_id=game_id)
    return redirect("home")


@require_http_methods(["GET", "HEAD", "POST"])
def invite(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    """The invitation link: it lets its holder watch the game (the token is kept in the
    session) and shows it with a "Take a seat" button while a seat is free; only that
    button's POST (CSRF-checked) seats anyone, so a GET, from this site or another,
    never does. A signed-out holder is asked to log in or sign up and comes back here."""
    game = selectors.get_game(game_id)
    if game is None or not privacy.holds_token(game, [token]):
        raise Http404(f"No game {game_id}.")
    privacy.remember_token(request, game)
    if request.method == "POST":
        return _take_seat(request, game, token)
    seated = (request.user.is_authenticated
              and selectors.seat_of(game, request.user.pk) is not None)
    if seated:
        return redirect("game", game_id=game_id)
    if game.status != Status.WAITING:
        messages.info(request, _("This game is no longer waiting for players: you are "
                                 "watching it."))
        return redirect("game", game_id=game_id)
    seats = {s.seat: s for s in game.seats.all()}
    return render(request, "games/invite.html", {
        "game": game, "next": request.path, "label": texts.kind_title(game.kind),
        "per_move": _per_move(game.time_control),
        "seats": [{"name": texts.seat_name(game.kind, i),
                   "player": (seats[i].user.username if i in seats else None)}
                  for i in range(game.seat_count)],
    })


def _take_seat(request: HttpRequest, game: Game, token: str) -> HttpResponse:
    """The invitation page's "Take a seat": the join of the API, with the link's token."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.path)
    try:
        joined = services.join_game(game_id=game.pk, user=request.user, invite=token,
                                    address=limits.address_of(request))
    except ServiceError as exc:
        messages.info(request, exc.detail)
    else:
        messages.success(request, _("You took a seat: the game has started. Good luck!")
                         if joined.status == Status.ACTIVE
                         else _("You took a seat. The game starts when every seat is "
                                "taken."))
    return redirect("game", game_id=game.pk)


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(request, game_id)
    body = selectors.game_json(game)
    body["presence"] = leavers.public_presence(
        presence.snapshot_sync(game.pk, game.seat_count), body)
    user_id = request.user.pk if request.user.is_authenticated else None
    seat = selectors.seat_of(game, user_id)
    data = {
        "game": body, "spec": texts.spec(game.kind), "events": _event_rows(game),
        "me": {"username": request.user.username or None, "seat": seat,
               "moderator": request.user.has_perm("moderation.delete_message")},
        "label": texts.kind_title(game.kind),
        # For "Add bot" on the empty seats of a waiting casual game (game.js).
        "bot_levels": [{"level": level, "label": text}
                       for level, text in _bot_levels(game.kind)],
        # The invitation link, for the table and the creator only (never spectators).
        "invite_url": (request.build_absolute_uri(privacy.invite_path(game))
                       if privacy.sees_invite(game, request.user) else None),
        "rematch": rematch.rematch_json(game),
        # The pending invitations by name, each with "Take back" (table.js), for the table.
        "invitations": ([i for i in invitations.of_game(game_id=game.pk, user=request.user)
                         if i["status"] == InvitationStatus.PENDING]
                        if seat is not None and game.status == Status.WAITING else []),
    }
    can_join = (game.status == Status.WAITING and user_id is not None and seat is None)
    return render(request, "games/game.html", {
        "game": game, "data": data, "seat": seat, "can_join": can_join,
        "label": data["label"], "board_css": board_css(game.kind),
    })


def _states(game: Game) -> list[dict[str, Any]]:
    """The state after every ply (0 .. game.ply), for the replay viewer to step through
    without a request per step."""
    rules = engine.get(game.kind)
    state = rules.initial()
    states = [state.to_json()]
    for event in selectors.engine_events(game.pk):
        state = rules.apply_event(state, event)
        states.append(state.to_json())
    return states


def _ply_param(request: HttpRequest, game: Game) -> int | None:
    """The `ply` query parameter: None when absent; -1 when it is not a ply of the game."""
    raw = request.GET.get("ply")
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or int(raw) > game.ply:
        return -1
    return int(raw)


def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(request, game_id)
    ply = _ply_param(request, game)
    if ply == -1:
        return HttpResponseBadRequest(_bad_ply(game))
    data = {
        "game": selectors.game_json(game), "spec": texts.spec(game.kind),
        "events": _event_rows(game), "states": _states(game),
        "ply": game.ply if ply is None else ply,
        "label": texts.kind_title(game.kind),
        # Seats a bot took over from a player who left (games/leavers.py), and at which ply.
        "handovers": [{"seat": h.seat, "ply": h.ply, "level": h.bot.bot_level,
                       "replaced": h.replaced.username}
                      for h in game.handovers.select_related("bot", "replaced")],
    }
    return render(request, "games/replay.html", {"game": game, "data": data,
                                                 "label": data["label"],
                                                 "board_css": board_css(game.kind)})


@require_GET
def board_svg(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(request, game_id)
    ply = _ply_param(request, game)
    if ply == -1:
        return HttpResponseBadRequest(_bad_ply(game), content_type="text/plain")
    ply = game.ply if ply is None else ply
    state = game.state if ply == game.ply else selectors.state_at(game, ply).to_json()
    svg = render_svg(game.kind, state, ply=ply,
                     title=_("%(kind)s, game #%(game)s, ply %(ply)s") % {
                         "kind": texts.kind_title(game.kind), "game": game.pk, "ply": ply})
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    # A finished game's positions never change; a live one's latest position does.
    response["Cache-Control"] = ("public, max-age=86400"
                                 if game.status in (Status.FINISHED, Status.ABORTED)
                                 or ply < game.ply else "no-cache")
    # Its <title>s are in the reader's language: the switcher's cookie (or the account
    # behind the session cookie) chooses it as much as Accept-Language.
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


@require_GET
def check(request: HttpRequest, game_id: int) -> JsonResponse:
    """Would this action be legal now? `{ok, reason}` from the engine, for move previews."""
    game = _game_or_404(request, game_id)
    try:
        action = strict_json.loads(request.GET.get("action", ""))
    except ValueError:
        return JsonResponse({"code": "invalid", "detail": _("action must be JSON.")},
                            status=400)
    if game.status != Status.ACTIVE:
        return JsonResponse({"ok": False, "reason": _("the game is not running")})
    rules = engine.get(game.kind)
    user_id = request.user.pk if request.user.is_authenticated else None
    seat = selectors.seat_of(game, user_id)
    try:
        legality = rules.is_legal(rules.state_from_json(game.state), action, seat)
    except engine.EngineError as exc:
        return JsonResponse({"ok": False,
                             "reason": texts.sentence(str(getattr(exc, "reason", exc)))})
    reason = texts.sentence(legality.reason) if legality.reason else legality.reason
    return JsonResponse({"ok": bool(legality.ok), "reason": reason})


def leaderboard(request: HttpRequest, kind: str | None = None) -> HttpResponse:
    """A kind's leaderboard; without a kind, the first registered one's."""
    if kind is None:
        kind = engine.KINDS[0]
    if kind not in engine.KINDS:
        raise Http404(f"No game kind {kind}.")
    return render(request, "games/leaderboard.html", {
        "kind": kind, "kinds": _kinds(), "label": texts.kind_title(kind),
    })


def rules_page(request: HttpRequest, kind: str) -> HttpResponse:
    """How to play `kind`: the project's own rule text (the template its family
    registered, `engine.Family.rules_page`: templates/rules/<kind>.html)."""
    if kind not in engine.KINDS:
        raise Http404(f"No game kind {kind}.")
    figures = rules_figures(kind)  # SVG we draw from the engine's data: safe markup
    info = engine.get(kind).info
    info = dataclasses.replace(info, title=texts.kind_title(kind),
                               summary=texts.kind_summary(kind))  # in the reader's language
    return render(request, "rules/page.html", {
        "kind": kind, "label": info.title, "info": info,
        # the bottom right square: the page says how far the square names run
        "last_square": format_cell((info.rows - 1, info.cols - 1)),
        "rules_template": engine.family_of(kind).rules_template(kind), "kinds": _kinds(),
        "start_svg": mark_safe(figures["start"]),
        "pieces": [{"name": p["name"], "svg": mark_safe(p["svg"])}
                   for p in figures["pieces"]],
        "first_move": _first_move(),
    })


def _first_move() -> dict[str, int]:
    """The first-move windows the rule text names (templates/rules/_first_move.html)."""
    return {"open": first_move_seconds(private=False),
            "private": first_move_seconds(private=True) // 60}
