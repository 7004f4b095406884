"""Tournament pages."""

from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.listing, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.page, name="tournament"),
]
