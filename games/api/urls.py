"""Games API routes under /api/."""

from django.urls import include, path

from games.api import (
    analysis_views,
    computer_views,
    invitation_views,
    profile_views,
    ranked_views,
    views,
)

# Under /api/games/<game_id>/: one game, what may be done to it, and what it leads to.
one_game = [
    path("", views.GameView.as_view(), name="api-game"),
    path("join/", views.JoinView.as_view(), name="api-game-join"),
    path("leave/", views.LeaveView.as_view(), name="api-game-leave"),
    path("actions/", views.ActionsView.as_view(), name="api-game-actions"),
    path("resign/", views.ResignView.as_view(), name="api-game-resign"),
    path("events/", views.EventsView.as_view(), name="api-game-events"),
    path("replay/", views.ReplayView.as_view(), name="api-game-replay"),
    path("legal-actions/", views.LegalActionsView.as_view(), name="api-game-legal-actions"),
    path("export/", views.ExportView.as_view(), name="api-game-export"),
    path("hint/", views.HintView.as_view(), name="api-game-hint"),
    path("bots/", computer_views.BotsView.as_view(), name="api-game-bots"),
    path("bots/<int:seat>/", computer_views.BotSeatView.as_view(), name="api-game-bot-seat"),
    path("seats/<int:seat>/bot/", computer_views.HandOverView.as_view(),
         name="api-game-seat-bot"),
    path("analysis/", analysis_views.AnalysisView.as_view(), name="api-game-analysis"),
    path("analysis/<int:ply>/best/", analysis_views.BestMoveView.as_view(),
         name="api-game-analysis-best"),
    path("invitations/", invitation_views.InvitationsView.as_view(),
         name="api-game-invitations"),
    path("rematch/", invitation_views.RematchView.as_view(), name="api-game-rematch"),
    path("rematch/decline/", invitation_views.RematchDeclineView.as_view(),
         name="api-game-rematch-decline"),
]

urlpatterns = [
    path("kinds/", views.KindsView.as_view(), name="api-kinds"),
    path("games/", views.GamesView.as_view(), name="api-games"),
    path("games/<int:game_id>/", include(one_game)),
    path("me/games/", views.MyGamesView.as_view(), name="api-my-games"),
    path("me/invitations/", invitation_views.MyInvitationsView.as_view(),
         name="api-my-invitations"),
    path("invitations/<int:invitation_id>/accept/",
         invitation_views.AcceptInvitationView.as_view(), name="api-invitation-accept"),
    path("invitations/<int:invitation_id>/decline/",
         invitation_views.DeclineInvitationView.as_view(), name="api-invitation-decline"),
    path("invitations/<int:invitation_id>/revoke/",
         invitation_views.RevokeInvitationView.as_view(), name="api-invitation-revoke"),
    path("users/<str:username>/", profile_views.ProfileView.as_view(), name="api-profile"),
    path("matchmaking/", ranked_views.MatchmakingView.as_view(), name="api-matchmaking"),
    path("leaderboard/<str:kind>/", ranked_views.LeaderboardView.as_view(),
         name="api-leaderboard"),
    path("leaderboard/<str:kind>/provisional/", ranked_views.ProvisionalView.as_view(),
         name="api-leaderboard-provisional"),
    path("users/<str:username>/rating-history/<str:kind>/",
         ranked_views.RatingHistoryView.as_view(), name="api-rating-history"),
]
