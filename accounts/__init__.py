"""Users, authentication (session and token) and profiles."""
