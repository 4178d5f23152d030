"""The pages people use: the home page, joining, the phone's wallet and the table.

Every form posts, then redirects (so a reload never posts twice) and carries a fresh
idempotency key (so a double tap never pays twice). Refusals come back as a message in the
reader's language and change nothing.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, request, url_for
from markupsafe import Markup

from .. import services
from ..core.errors import BancoError
from ..core.ledger import BANK
from ..live import news
from . import danger, forms, seats, versioned
from .dice import dice_view
from .errors import translate
from .feed import describe
from .notices import recent_entries
from .qr import qr_svg
from .ratelimit import count_attempt, count_created, may_create
from .regions import Lazy, once, render
from .speaking import gettext as _
from .templating import lang

bp = Blueprint("pages", __name__)

# The house rules the new-game form offers as tick boxes (game settings that are true or false).
HOUSE_RULES = ("free_parking_pot", "strict_bank", "no_trades_two_left")
# The faces each special die may carry (Che Impresa!'s expropriation dice).
DIE_FACES = {"buyer_die": ("si", "no", "vita"), "owner_die": ("no", "doppio", "meta", "ritira", "vita")}


def _public(path: str) -> str:
    return current_app.config["PUBLIC_URL"] + path


def _safe_next(target: str | None, fallback: str) -> str:
    """Only a path on this site: never ``//host`` or ``https://host`` (no open redirect), and
    ``fallback`` in place of a target with a control character or a line break (no header of
    the answer may hold one, and a browser would drop or misread it)."""
    if not target or any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in target):
        return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return fallback
    return target


FEED_LINES = news.FEED_LINES  # the feed's newest lines on a page (an event's news carries no more)


def game_view(game, caller) -> dict:
    """What every page of a game shows: players, feed, clock, in the reader's language. Its
    costly pieces are ``Lazy``: a region rendered alone computes only those it shows."""
    edition = services.edition_of(game)
    names = {p.id: p.name for p in game.players}
    state = once(lambda: services.state_of(game, deeds=False))
    me = caller.player_id if caller else None
    feed = once(
        lambda: versioned.once(
            ("feed", game.id, game.version, lang()),
            lambda: [
                {
                    "version": e.version,
                    "text": describe(e, names, edition),
                    "at": e.at,
                    "reversed": e.reversed_by is not None,
                    "kind": e.kind,
                }
                for e in recent_entries(game, FEED_LINES)
            ],
        )
    )
    return {
        "game": game,
        "edition": edition,
        "names": names,
        "caller": caller,
        "BANK": BANK,
        "feed": Lazy(feed),
        # The feed as the wallets and the Bank draw it: the same for every reader of a
        # language, so drawn once a version for all of them (``_feed.html``).
        "feed_html": Lazy(
            lambda: versioned.once(
                ("feed_html", game.id, game.version, lang()),
                lambda: Markup(
                    current_app.jinja_env.get_template("_feed.html").render(feed=feed(), feed_lines=FEED_LINES)
                ),
            )
        ),
        "clock": Lazy(lambda: services.clock_view(game)),
        "show_cash": lambda pid: services.can_see_cash(game, caller, pid),
        "pending": Lazy(lambda: services.waiting(state())),
        "pots": Lazy(lambda: state().pots),
        "settings": Lazy(lambda: state().settings),
        "final": Lazy(lambda: services.score(game) if game.status == "finished" else None),
        "dice": Lazy(lambda: dice_view(state(), edition, me)),
        "turn": Lazy(lambda: services.turn_view(state())),
        "time_up": Lazy(lambda: services.time_up_view(game, state())),
        "expropriation": Lazy(lambda: state().expropriation),
        "play_offs": Lazy(lambda: state().play_offs),
        "ends": ends_view(edition),
        "squares": Lazy(lambda: _squares(game, caller, edition, state())),
        # Each player's state as the rules keep it (turns to sit out, turns in jail...).
        "player_states": Lazy(lambda: state().players),
        # Niente è come sembra: payments open to a check, the reader's notes and Imprevisti.
        "checks": Lazy(lambda: services.checkable_view(state())),
        "counterfeits": Lazy(
            lambda: services.counterfeits_view(state(), me if caller and not caller.is_banker else None)
        ),
    }


def ends_view(edition) -> dict:
    """How the edition ends a game, as ``_ends.html`` says it: ``turn_finishes`` when the
    player whose turn it is finishes it once the time is up, ``plays_off`` when a tie for first
    plays ``play_off_minutes`` more, ``all_deeds_owned`` when the game ends once every deed is."""
    end = edition.end
    return {
        "turn_finishes": end.time_up == "active_player_finishes_turn",
        "plays_off": end.tie == "play_off",
        "play_off_minutes": end.play_off_minutes,
        "all_deeds_owned": end.all_deeds_owned,
    }


def _squares(game, caller, edition, state) -> list[dict]:
    """The edition's computed squares for the caller's phone: what each would move now, or why
    it cannot (IMU owed on nothing, a player already sitting out); squares that go by the dice
    are asked for the total on the page. Each square's policy draws its own part of the page
    (``templates/policies/squares/``)."""
    if caller is None or caller.player_id is None or game.status != "running" or not edition.squares:
        return []
    return [
        {
            "square": offer.square,
            "amount": offer.amount,
            "refusal": translate(offer.refused) if offer.refused else None,
            "deeds": offer.deeds,
        }
        for offer in services.square_offers(game, caller, services.state_of(game))
    ]


# --- home and new games ----------------------------------------------------------------------


@bp.get("/")
def home():
    games = []
    for game_id in seats.known_games():
        game = services.find_game(game_id)
        if game is not None:
            games.append(
                {
                    "game": game,
                    "edition": services.edition_of(game),
                    "is_banker": seats.caller(game_id, seats.BANKER) is not None,
                    "is_screen": seats.is_screen(game_id) and seats.caller(game_id, seats.PLAYER) is None,
                }
            )
    return render_template(
        "home.html",
        editions=list(services.editions().values()),
        games=games,
        default_edition=current_app.config["DEFAULT_EDITION"],
    )


@bp.post("/games")
def create_game():
    key = request.form.get("key", "")
    opened = seats.opened_with(key)
    if opened is not None:  # the same form sent again (a reload, a second tap): that table
        return redirect(url_for("pages.table", game_id=opened))
    may_create("game")  # past this address's share: the error page, 429, says when to come back
    names = [n for n in request.form.getlist("name") if n.strip()]
    edition_id = request.form.get("edition", "")
    minutes = request.form.get("time_limit", "").strip()
    plays = request.form.get("banker_plays") == "1"
    settings = {name: request.form.get(name) == "1" for name in HOUSE_RULES}
    try:
        edition = services.editions().get(edition_id)
        if edition is not None and edition.expropriation is not None:
            settings.update(_special_dice(edition))
        if edition is not None:
            settings.update(_building_supply(edition))
            # One box per edition that has them (the form shows the chosen game's), so read its own.
            settings["house_sizes"] = bool(edition.house_sizes) and request.form.get(f"house_sizes_{edition.id}") == "1"
        if edition is not None and len(names) < edition.min_players:
            flash(_("Enter at least %(min)s players.", min=edition.min_players), "error")
            return redirect(url_for("pages.home"))
        limit = services.EDITION_CLOCK  # left empty: the rulebook's own clock (90 minutes in the championship)
        if minutes == "0":
            limit = None
        elif minutes:
            # ASCII digits, a few: "²" is a digit to isdigit() but not a number to int(), and
            # int() refuses thousands of digits.
            if not (minutes.isascii() and minutes.isdigit() and len(minutes) <= 4):
                flash(_("The time limit must be 1 to 1440 minutes."), "error")
                return redirect(url_for("pages.home"))
            limit = int(minutes)
        table = services.create_game(
            edition_id, names, limit, settings=settings, hand_out_tokens=False, banker_seat=0 if plays else None
        )
    except BancoError as error:
        flash(translate(error), "error")
        return redirect(url_for("pages.home"))
    count_created("game")
    seats.remember(table["id"], seats.BANKER, table["banker_token"], opened_with=key)
    for player in table["players"]:
        seats.remember(table["id"], seats.PLAYER, player["token"])
    return redirect(url_for("pages.table", game_id=table["id"]))


def _building_supply(edition) -> dict:
    """The bank's buildings as the group counted them in their box (``supply_small``,
    ``supply_big`` settings), read from the new-game form; left out when empty. A count that is
    not a small whole number is sent on as text, for the settings to refuse with a message."""
    chosen = {}
    for size in ("small", "big"):
        raw = request.form.get(f"supply_{size}_{edition.id}", "").strip()
        if raw:
            chosen[f"supply_{size}"] = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 3 else raw
    return chosen


def _special_dice(edition) -> dict:
    """The special dice's faces as the group counted them on their box (``buyer_die``,
    ``owner_die`` settings), read from the new-game form's counts; left out when they are the
    edition's own. A count that is not a small whole number is sent on as text, for the
    settings to refuse with a message."""
    chosen = {}
    for die in ("buyer_die", "owner_die"):
        default = list(getattr(edition.expropriation, die))
        faces = []
        for face in dict.fromkeys(default + list(DIE_FACES[die])):
            raw = request.form.get(f"{die}_{face}", "").strip()
            if raw == "":
                raw = str(default.count(face))
            if not (raw.isascii() and raw.isdigit() and len(raw) <= 2):
                return {die: raw}
            faces += [face] * int(raw)
        if sorted(faces) != sorted(default):
            chosen[die] = faces
    return chosen


@bp.post("/join")
def join_by_code():
    return redirect(url_for("pages.join", code=services.normalise_join_code(request.form.get("code", "")) or "-"))


@bp.get("/lang/<code>")
def switch_language(code):
    target = _safe_next(request.args.get("next"), url_for("pages.home"))
    response = make_response(redirect(target))
    if code in ("it", "en"):
        response.set_cookie(
            "lang",
            code,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            secure=current_app.session_interface.get_cookie_secure(current_app),
        )
    return response


# --- joining ---------------------------------------------------------------------------------


@bp.get("/j/<code>")
def join(code):
    count_attempt()
    try:
        game = services.game_by_join_code(code)
    except BancoError as error:
        return render_template("join_unknown.html", message=translate(error), code=code), 404
    me = seats.caller(game.id, seats.PLAYER)
    if me is not None:
        return redirect(url_for("pages.wallet", game_id=game.id))
    return render_template("join.html", game=game, edition=services.edition_of(game))


@bp.post("/j/<code>")
def take_seat(code):
    count_attempt()
    game = services.game_by_join_code(code)
    try:
        if request.form.get("player"):
            token = services.claim_seat(game.id, request.form["player"])
        else:
            token = services.join(game.id, game.join_code, request.form.get("name", ""))["token"]
    except BancoError as error:
        flash(translate(error), "error")
        return redirect(url_for("pages.join", code=game.join_code))
    seats.remember(game.id, seats.PLAYER, token)
    return redirect(url_for("pages.wallet", game_id=game.id))


@bp.get("/r/<secret>")
def rejoin(secret):
    """A rejoin QR opens this page; the phone takes over the seat only when the player taps
    (a link preview that merely fetches the page must not use up the code)."""
    count_attempt()
    return render_template("rejoin.html", secret=secret)


@bp.post("/r/<secret>")
def redeem_rejoin(secret):
    count_attempt()
    try:
        game_id, _player_id, token = services.redeem_rejoin(secret)
    except BancoError as error:
        return render_template("error.html", status=403, message=translate(error)), 403
    seats.remember(game_id, seats.PLAYER, token)
    return redirect(url_for("pages.wallet", game_id=game_id))


# --- the phone: my wallet --------------------------------------------------------------------


@bp.get("/g/<game_id>/me")
def wallet(game_id):
    with services.reading():  # cash, feed and requests of one instant
        return _wallet(game_id)


def _wallet(game_id):
    game = services.get_game(game_id)
    me = seats.caller(game.id, seats.PLAYER)
    if me is None:
        return redirect(url_for("pages.join", code=game.join_code))
    player = next(p for p in game.players if p.id == me.player_id)
    banker = seats.caller(game.id, seats.BANKER)
    return render(
        "wallet.html",
        game.version,
        me=player,
        is_banker=banker is not None,
        **game_view(game, me),
        **danger.wallet_view(game, player),
    )


@bp.post("/g/<game_id>/me")
def wallet_action(game_id):
    game = services.get_game(game_id)
    me = seats.caller(game.id, seats.PLAYER)
    if me is None:
        return redirect(url_for("pages.join", code=game.join_code))
    reply = forms.run(game.id, me, forms.payload())
    stops_on = reply["result"].get("stops_on") if reply else None
    if stops_on:  # the train stopped on a free deed: its page, to buy or auction it
        return redirect(url_for("deeds.deed_page", game_id=game.id, deed_key=stops_on))
    # A move made in a section that opens keeps it open: the roll just made, the error to mend.
    sheet = request.form.get("sheet", "")
    if sheet in WALLET_SHEETS:
        return redirect(url_for("pages.wallet", game_id=game.id, open=sheet, _anchor=f"{sheet}-sheet"))
    return redirect(url_for("pages.wallet", game_id=game.id))


# The wallet's sections that open (``templates/wallet.html``), each ``<name>-sheet``.
WALLET_SHEETS = ("dice", "ask", "bank", "squares", "jail", "scan")


# --- the table: the banker's screen ----------------------------------------------------------


@bp.get("/g/<game_id>/table")
def table(game_id):
    with services.reading():  # cash, feed and requests of one instant
        return _table(game_id)


def _table(game_id):
    game = services.get_game(game_id)
    banker = seats.caller(game.id, seats.BANKER)
    if banker is None:
        # Not the banker's device: the one that gave the bank to a phone goes on as the table
        # screen, a player goes to their wallet, anyone else to the join page.
        if seats.is_screen(game.id):
            return redirect(url_for("screen.screen", game_id=game.id))
        if seats.caller(game.id, seats.PLAYER) is not None:
            return redirect(url_for("pages.wallet", game_id=game.id))
        return redirect(url_for("pages.join", code=game.join_code))
    join_url = _public(url_for("pages.join", code=game.join_code))
    view = game_view(game, banker)
    # The bank may still be on the table's own device, and its banker may play: private cash
    # stays private here too.
    view["show_cash"] = lambda _player_id: not game.cash_private
    screen_url = _public(url_for("screen.screen", game_id=game.id))
    return render(
        "table.html",
        game.version,
        join_url=join_url,
        join_qr=Lazy(lambda: qr_svg(join_url)),
        undo_text=Lazy(lambda: _undo_text(game, view["edition"])),
        screen_url=screen_url,
        screen_qr=Lazy(lambda: qr_svg(screen_url)),
        plays=seats.caller(game.id, seats.PLAYER) is not None,
        moved=Lazy(lambda: services.moved_since_printing(current_app.config["PUBLIC_URL"])),
        # Big buildings broken at once share the bank's small ones (the championship's FAQ 29).
        breaks_shared=view["edition"].buildings.short_break == "missing_at_half",
        **view,
    )


def _undo_text(game, edition) -> str | None:
    """The entry the banker's undo would reverse, in words (``None`` when there is none)."""
    target = services.undo_target(game)
    return None if target is None else describe(target, {p.id: p.name for p in game.players}, edition)


@bp.post("/g/<game_id>/table")
def table_action(game_id):
    game = services.get_game(game_id)
    banker = seats.caller(game.id, seats.BANKER)
    if banker is None:
        abort(403)
    data = forms.payload()
    reply = forms.run(game.id, banker, data)
    stops_on = reply["result"].get("stops_on") if reply else None
    if stops_on:  # the train stopped on a free deed: its page, for that player to buy or auction it
        return redirect(url_for("deeds.deed_page", game_id=game.id, deed_key=stops_on, **{"as": data.get("player")}))
    return redirect(url_for("pages.table", game_id=game.id))


@bp.post("/g/<game_id>/rejoin/<player_id>")
def rejoin_code(game_id, player_id):
    game = services.get_game(game_id)
    if seats.caller(game.id, seats.BANKER) is None:
        abort(403)
    try:
        secret = services.issue_rejoin(game.id, player_id)
    except BancoError as error:
        flash(translate(error), "error")
        return redirect(url_for("pages.table", game_id=game.id))
    player = next(p for p in game.players if p.id == player_id)
    url = _public(url_for("pages.rejoin", secret=secret))
    return render_template(
        "rejoin_qr.html", game=game, player=player, url=url, qr=qr_svg(url), minutes=services.REJOIN_MINUTES
    )
