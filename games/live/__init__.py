"""Live play over WebSockets: consumers, frames, the per-process fan-out, presence and the
after-commit bus that feeds them (docs/realtime.md)."""
