"""Django's PostgreSQL backend with a cheaper pool check (see `base`), and a deploy check
that autovacuum runs (`checks`)."""
