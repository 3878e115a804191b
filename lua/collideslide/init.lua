-- collideslide: ellipsoids that collide and slide through triangle worlds.
-- The module a script requires: every function of the C core (collideslide.core),
-- plus the Lua layer: the OBJ loader, a mesh builder for boxes and quads, and the
-- character controller (see API.md, "The Lua layer").

return require("collideslide.layer")(require "collideslide.core")
