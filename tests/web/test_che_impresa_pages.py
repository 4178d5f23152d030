"""Che Impresa! on the pages: the jail's way out is offered only when the jailed player's turn
comes again."""

from __future__ import annotations

from companion import services

from .test_pages import keyed, open_table, start

EN = {"Accept-Language": "en"}
IT = {"Accept-Language": "it"}


def page(client, path, headers=EN) -> str:
    return client.get(path, headers=headers).get_data(as_text=True)


def test_the_wallet_offers_no_way_out_of_jail_in_the_turn_she_went_in(client, app):
    """Seed 000 lines 172-176: "Il giocatore rimarrà in prigione un solo turno [...] quando il
    giocatore tornerà ad essere di mano dovrà uscire di prigione": pagando subito 20 Baiocchi,
    oppure tentando un tiro di dadi doppio."""
    game_id, _ = open_table(client, edition="che-impresa", banker_plays="1")  # the banker is Anna
    start(client, game_id)
    with app.app_context():
        anna = next(p.id for p in services.get_game(game_id).players if p.name == "Anna")
    wallet = page(client, f"/g/{game_id}/me")
    assert client.post(f"/g/{game_id}/me", data=keyed(wallet, "go_to_jail")).status_code == 302
    wallet = page(client, f"/g/{game_id}/me")
    assert "You stay here for the rest of this turn: when your turn comes again, pay or try for doubles" in wallet
    for kind in ("pay_jail_fine", "leave_jail_on_doubles", "leave_jail_after_failed_roll"):
        assert f'value="{kind}"' not in wallet
    assert "Resti qui per il resto di questo turno" in page(client, f"/g/{game_id}/me", IT)
    # The turn goes round and comes back to Anna: now the phone offers both ways.
    table = page(client, f"/g/{game_id}/table")
    handed = client.post(f"/g/{game_id}/table", data={**keyed(table, "end_turn"), "to": anna})
    assert handed.status_code == 302
    wallet = page(client, f"/g/{game_id}/me")
    assert "You stay here for the rest of this turn" not in wallet
    assert 'value="pay_jail_fine"' in wallet and 'value="leave_jail_after_failed_roll"' in wallet
    assert client.post(f"/g/{game_id}/me", data=keyed(wallet, "pay_jail_fine")).status_code == 302
    with app.app_context():
        assert not services.state_of(services.get_game(game_id)).players[anna].in_jail
