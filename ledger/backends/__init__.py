"""Model backends of the roles: `local` (offline) and `anthropic` (Claude)."""
