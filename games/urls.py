"""Page routes: lobby, game, replay, board image, leaderboards, rules."""

from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="home"),
    path("games/new/", views.create, name="game-create"),
    path("games/mine/", views.mine, name="my-games"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/join/", views.join, name="game-join"),
    path("games/<int:game_id>/invite/<str:token>/", views.invite, name="game-invite"),
    path("games/<int:game_id>/leave/", views.leave, name="game-leave"),
    path("games/<int:game_id>/replay/", views.replay, name="game-replay"),
    path("games/<int:game_id>/board.svg", views.board_svg, name="game-board-svg"),
    path("games/<int:game_id>/check", views.check, name="game-check"),
    path("leaderboard/", views.leaderboard, name="leaderboard-default"),
    path("leaderboard/<str:kind>/", views.leaderboard, name="leaderboard"),
    path("rules/<str:kind>/", views.rules_page, name="rules"),
]
