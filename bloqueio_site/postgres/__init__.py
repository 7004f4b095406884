"""Django's PostgreSQL backend with a cheaper pool check (see `base`) and a check that
autovacuum runs (`validation`)."""
