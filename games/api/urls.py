"""Games API routes under /api/."""

from django.urls import path

from games.api import analysis_views, computer_views, ranked_views, views

urlpatterns = [
    path("kinds/", views.KindsView.as_view(), name="api-kinds"),
    path("games/", views.GamesView.as_view(), name="api-games"),
    path("games/<int:game_id>/", views.GameView.as_view(), name="api-game"),
    path("me/games/", views.MyGamesView.as_view(), name="api-my-games"),
    path("games/<int:game_id>/join/", views.JoinView.as_view(), name="api-game-join"),
    path("games/<int:game_id>/leave/", views.LeaveView.as_view(), name="api-game-leave"),
    path("games/<int:game_id>/actions/", views.ActionsView.as_view(), name="api-game-actions"),
    path("games/<int:game_id>/resign/", views.ResignView.as_view(), name="api-game-resign"),
    path("games/<int:game_id>/events/", views.EventsView.as_view(), name="api-game-events"),
    path("games/<int:game_id>/replay/", views.ReplayView.as_view(), name="api-game-replay"),
    path(
        "games/<int:game_id>/legal-actions/",
        views.LegalActionsView.as_view(),
        name="api-game-legal-actions",
    ),
    path("games/<int:game_id>/export/", views.ExportView.as_view(), name="api-game-export"),
    path("games/<int:game_id>/hint/", views.HintView.as_view(), name="api-game-hint"),
    path("games/<int:game_id>/bots/", computer_views.BotsView.as_view(), name="api-game-bots"),
    path("games/<int:game_id>/bots/<int:seat>/", computer_views.BotSeatView.as_view(),
         name="api-game-bot-seat"),
    path("games/<int:game_id>/seats/<int:seat>/bot/", computer_views.HandOverView.as_view(),
         name="api-game-seat-bot"),
    path("games/<int:game_id>/analysis/", analysis_views.AnalysisView.as_view(),
         name="api-game-analysis"),
    path("games/<int:game_id>/analysis/<int:ply>/best/", analysis_views.BestMoveView.as_view(),
         name="api-game-analysis-best"),
    path("matchmaking/", ranked_views.MatchmakingView.as_view(), name="api-matchmaking"),
    path("leaderboard/<str:kind>/", ranked_views.LeaderboardView.as_view(),
         name="api-leaderboard"),
    path("leaderboard/<str:kind>/provisional/", ranked_views.ProvisionalView.as_view(),
         name="api-leaderboard-provisional"),
    path("users/<str:username>/rating-history/<str:kind>/",
         ranked_views.RatingHistoryView.as_view(), name="api-rating-history"),
]
