import cProfile, pstats, time
from companion import services
from companion.web.news import make_news

def test_prof(app, api):
    game = api.new_game(tuple("Anna Bruno Carla Dario Elena Fabio Gino Ugo".split())).start()
    ids = game.ids
    with app.app_context():
        for i in range(40):
            services.act(game.id, services.Caller(game.id, False, ids["Anna"]), {"type": "transfer", "to": ids["Bruno"], "amount": 1})
        v = services.get_game(game.id).version
        make_news(game.id, {v: frozenset({"cash", "feed"})})
        t = time.perf_counter()
        for _ in range(200):
            make_news(game.id, {v: frozenset({"cash", "feed"})})
        print("make_news ms", (time.perf_counter() - t) / 200 * 1000)
        pr = cProfile.Profile(); pr.enable()
        for _ in range(200):
            make_news(game.id, {v: frozenset({"cash", "feed"})})
        pr.disable()
        pstats.Stats(pr).sort_stats("cumulative").print_stats(25)
