"""The home page: every paper on a timeline, with links to the pages that exist."""
