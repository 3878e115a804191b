-- examples/love-minimal/main.lua: a level, a character, WASD (Shift runs, Space
-- jumps), drawn from above. From the repository:  make LUA=luajit && love examples/love-minimal
-- (In your game: copy lua/collideslide/ and build/luajit/collideslide/core.so into
-- the game folder as collideslide/, and drop the two package lines.)
local src = love.filesystem.getSource()
package.path = src .. "/../../lua/?.lua;" .. src .. "/../../lua/?/init.lua;" .. package.path
package.cpath = src .. "/../../build/luajit/?.so;" .. package.cpath
local cs = require "collideslide"

local b = cs.newBuilder()                                     -- the level, in metres
b:box(-10, -1, -10, 10, 0, 10)                                -- the floor, its top at y = 0
b:box(-10, 0, -10, 10, 2, -9.5):box(-3, 0, -6, 3, 2, -5.5)    -- walls
for i = 1, 6 do b:box(2 + 0.4 * i, 0, -2, 10, 0.2 * i, 2) end -- stairs up along +x
local world = cs.newWorld()
world:add(b:mesh())
local level = love.graphics.newMesh(cs.draw.topDown(b.vertices, b.indices), "triangles")
local player = cs.newCharacter { position = { 0, 1, 0 } }    -- radii 0.4, 0.9, 0.4

function love.update(dt)
  local key = love.keyboard.isDown
  player:update(world, math.min(dt, 1 / 30), {
    x = (key("d") and 1 or 0) - (key("a") and 1 or 0),
    z = (key("s") and 1 or 0) - (key("w") and 1 or 0),
    jump = key("space"), run = key("lshift") })
end

function love.draw()
  love.graphics.push()
  love.graphics.translate(love.graphics.getWidth() / 2, love.graphics.getHeight() / 2)
  love.graphics.scale(30)                                     -- 30 pixels per metre, x right, z down
  love.graphics.setLineWidth(2 / 30)
  love.graphics.draw(level)
  love.graphics.setColor(1, 0.5, 0)
  love.graphics.polygon("line", cs.draw.outline(player))
  for _, c in ipairs(cs.draw.contacts(player)) do love.graphics.line(c[1], c[3], c[4], c[6]) end
  love.graphics.pop()
  love.graphics.setColor(1, 1, 1)
  local x, y, z = player:getPosition()
  love.graphics.print(("(%.2f, %.2f, %.2f) %s, %d contacts"):format(x, y, z,
    player.groundState, player:contactCount()), 10, 10)
end
