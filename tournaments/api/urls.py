"""Tournaments API routes under /api/."""

from django.urls import path

from tournaments.api import views

urlpatterns = [
    path("tournaments/", views.TournamentsView.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", views.TournamentView.as_view(),
         name="api-tournament"),
    path("tournaments/<int:tournament_id>/join/", views.JoinView.as_view(),
         name="api-tournament-join"),
    path("tournaments/<int:tournament_id>/withdraw/", views.WithdrawView.as_view(),
         name="api-tournament-withdraw"),
    path("tournaments/<int:tournament_id>/start/", views.StartView.as_view(),
         name="api-tournament-start"),
]
