"""The one door for every write: actions that take the verified acting member, own one
transaction, apply the rules of `models/` and return their result with the effects to run after
the commit. States and HTTP routes call them through `actions.runner`."""
