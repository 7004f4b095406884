"""Page routes: lobby, game, replay, board image, leaderboards, rules."""

from django.urls import include, path

from games import views

# Under /games/<game_id>/: a game's page and what it links to.
one_game = [
    path("", views.game_page, name="game"),
    path("join/", views.join, name="game-join"),
    path("invite/<str:token>/", views.invite, name="game-invite"),
    path("leave/", views.leave, name="game-leave"),
    path("replay/", views.replay, name="game-replay"),
    path("board.svg", views.board_svg, name="game-board-svg"),
    path("check", views.check, name="game-check"),
]

urlpatterns = [
    path("", views.lobby, name="home"),
    path("games/new/", views.create, name="game-create"),
    path("games/mine/", views.mine, name="my-games"),
    path("games/<int:game_id>/", include(one_game)),
    path("leaderboard/", views.leaderboard, name="leaderboard-default"),
    path("leaderboard/<str:kind>/", views.leaderboard, name="leaderboard"),
    path("rules/<str:kind>/", views.rules_page, name="rules"),
]
