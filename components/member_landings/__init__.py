"""A member's pages written by the server (docs/acquisition.md, "Member landings"): the three
landing designs, the signup aimed at the member and the profile's first paint."""
