-- collideslide: minimal entry point until the Lua layer lands; it re-exports
-- the C core (collideslide.core).
return require "collideslide.core"
