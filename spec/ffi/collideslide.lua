-- spec/ffi/collideslide.lua: with CS_BACKEND=ffi (make test-ffi), spec/helper.lua puts
-- spec/ffi/ first on package.path, so that `require "collideslide"` in the specs
-- (and in the interpreters they start with the same path) is the LuaJIT FFI binding.
return require "collideslide.ffi"
