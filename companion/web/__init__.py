"""The HTTP side: pages for people, JSON for programs, the live stream. Only services change data."""
