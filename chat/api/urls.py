"""Chat API routes under /api/."""

from django.urls import path

from chat.api import views

urlpatterns = [
    path("games/<int:game_id>/chat/", views.GameChatView.as_view(), name="api-game-chat"),
    path("chat/<int:message_id>/delete/", views.DeleteMessageView.as_view(),
         name="api-chat-delete"),
]
